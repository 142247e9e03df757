#include "pstate/scan/credential_value.h"

#include <gtest/gtest.h>

#include <cstring>

namespace pstate::scan {
namespace {

TEST(CredentialValueTest, PlausibleValues) {
  for (const char* value : {
           "hunter22", "s3cr3t-P@ss", "changeme", "password", "xK9#mQ2$vL7p",
           "4f3c2a1b-9d8e-4c7b-a6f5-e4d3c2b1a0f9",  // UUID-shaped API key
           "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
           "-----BEGIN RSA PRIVATE KEY-----\nMIIE...\n-----END RSA PRIVATE KEY-----",
           "[p@ss!]", "<pass#1>", "  padded-secret  ", "/aZ3+kq/Lm9x+base64ish=",
           "https://user:pw@example.com", "arn-like-but-not"}) {
    // Samples are fake, but findings-style output never echoes values.
    EXPECT_TRUE(IsPlausibleCredentialValue(value)) << "sample of length " << std::strlen(value);
  }
}

TEST(CredentialValueTest, EmptyShortAndNonValues) {
  for (const char* value : {"", "     ", "abc", "abcde", "true", "FALSE", "none", "null",
                            "undefined", "123456", "-42", "3.14159", "86400", "+1234567"}) {
    EXPECT_FALSE(IsPlausibleCredentialValue(value)) << value;
  }
}

TEST(CredentialValueTest, RedactionMarkers) {
  for (const char* value : {"REDACTED", "redacted", "[secret]", "[sensitive]", "[REDACTED]",
                            "<secret>", "<redacted>", "<your-password>", "(sensitive value)",
                            "********", "xxxxxxxx", "XXXXXXXXXXXX", "########", "......",
                            "\xE2\x80\xA2\xE2\x80\xA2\xE2\x80\xA2\xE2\x80\xA2", "omitted"}) {
    EXPECT_FALSE(IsPlausibleCredentialValue(value)) << value;
  }
}

TEST(CredentialValueTest, SentinelsAndReferences) {
  for (const char* value : {
           "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
           "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf",
           "arn:aws-us-gov:ssm:us-gov-west-1:123456789012:parameter/db/password",
           "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.KeyVault/vaults/v",
           "https://myvault.vault.azure.net/secrets/db-password/0123456789abcdef",
           "projects/my-project/secrets/db-password/versions/latest",
           "${var.db_password}", "{{ .Values.password }}", "$DB_PASSWORD", "%DB_PASSWORD%",
           "~/.kube/config", "/etc/secrets/token", "./secrets/key.pem"}) {
    EXPECT_FALSE(IsPlausibleCredentialValue(value)) << value;
  }
}

}  // namespace
}  // namespace pstate::scan
