#include "detect/credential_value.h"

#include <gtest/gtest.h>

#include <string>

#include <cstring>

namespace pstate::detect {
namespace {

TEST(CredentialValueTest, PlausibleValues) {
  for (const char* value :
       {"hunter22", "s3cr3t-P@ss", "changeme", "password", "xK9#mQ2$vL7p",
        "4f3c2a1b-9d8e-4c7b-a6f5-e4d3c2b1a0f9",  // UUID-shaped API key
        "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIE...\n-----END RSA PRIVATE "
        "KEY-----",
        "[p@ss!]", "<pass#1>", "  padded-secret  ", "/aZ3+kq/Lm9x+base64ish=",
        "https://user:pw@example.com", "arn-like-but-not"}) {
    // Samples are fake, but findings-style output never echoes values.
    EXPECT_TRUE(IsPlausibleCredentialValue(value))
        << "sample of length " << std::strlen(value);
  }
}

TEST(CredentialValueTest, EmptyShortAndNonValues) {
  for (const char* value :
       {"", "     ", "abc", "abcde", "true", "FALSE", "none", "null",
        "undefined", "123456", "-42", "3.14159", "86400", "+1234567"}) {
    EXPECT_FALSE(IsPlausibleCredentialValue(value)) << value;
  }
}

TEST(CredentialValueTest, RedactionMarkers) {
  for (const char* value :
       {"REDACTED", "redacted", "[secret]", "[sensitive]", "[REDACTED]",
        "<secret>", "<redacted>", "<your-password>", "(sensitive value)",
        "********", "xxxxxxxx", "XXXXXXXXXXXX", "########", "......",
        "\xE2\x80\xA2\xE2\x80\xA2\xE2\x80\xA2\xE2\x80\xA2", "omitted"}) {
    EXPECT_FALSE(IsPlausibleCredentialValue(value)) << value;
  }
}

TEST(CredentialValueTest, SentinelsAndReferences) {
  for (const char* value :
       {"04da6b54-80e4-46f7-96ec-b56ff0331ba9",
        "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf",
        "arn:aws-us-gov:ssm:us-gov-west-1:123456789012:parameter/db/password",
        "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.KeyVault/"
        "vaults/v",
        "https://myvault.vault.azure.net/secrets/db-password/0123456789abcdef",
        "projects/my-project/secrets/db-password/versions/latest",
        "${var.db_password}", "{{ .Values.password }}", "$DB_PASSWORD",
        "%DB_PASSWORD%", "~/.kube/config", "/etc/secrets/token",
        "./secrets/key.pem"}) {
    EXPECT_FALSE(IsPlausibleCredentialValue(value)) << value;
  }
}

TEST(PasswordHashTest, RecognizesTheCommonFormats) {
  for (const char* hash :
       {"$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy",
        "$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW",
        "$2y$05$bvIG6Nmid91Mu9RcmmWZfO5HJIMCT8riNW0hEp8f6/FuA2/mHZFpe",
        "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$RdescudvJCsgt3ub+b+"
        "dWRWJTmaaJObG",
        "$argon2i$v=19$m=4096,t=3,p=1$c29tZXNhbHQ$"
        "iWh06vD8Fy27wf9npn6FXWiCX4K6pW6Ue1Bnzz07Z8A",
        "$6$rounds=5000$saltsalt$Xf0mQ1n8C2lxPZk2lq6Rk3Gs1vyMdxq.8XxRkNw0wJ2",
        "$5$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5",
        "$1$O3JMY.Tw$AdLnLjQ/5jXF9.MTp3gHv/",
        "$apr1$7RaRbKMw$gVB1yNCbKxJ0Cn1S2pP2N/",
        "pbkdf2_sha256$600000$c2FsdA$Zm9vYmFyYmF6cXV4cXV1eA==",
        "{SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g4HyL7",
        "  $2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW\n"}) {
    EXPECT_TRUE(IsPasswordHash(hash)) << hash;
    // A hash is not reported as a plaintext credential by the value rule's
    // caller; it stays "plausible" here so that rule order decides.
  }
  for (const char* not_hash :
       {"$2b$12$tooShort", "hunter2-Secret!", "$HOME/bin", "price: $6$ or $5$",
        "$argon2id$", "pbkdf2_sha256$", "{SSHA}",
        "$9$abc$defghijklmnopqrstuvwxyz"}) {
    EXPECT_FALSE(IsPasswordHash(not_hash)) << not_hash;
  }
}

TEST(EncryptedBlobTest, RecognizesApplicationEncryption) {
  for (const char* blob :
       {"ENC[AES256_GCM,data:Zm9vYmFy,iv:YWJjZGVm,tag:Z2hpamts,type:str]",
        "EJ[1:Yln6rPWpQ1eF3mzW2y2iVw==:abc:def]",
        "vault:v1:8SDd3WHDOjf7mq69CyCqYjBXAiQQAVZRkFM13ok481zoCmHnSeDX9vyf7w==",
        "$ANSIBLE_VAULT;1.1;AES256\n6162636465",
        "-----BEGIN PGP MESSAGE-----\n\nhQEMA...\n-----END PGP MESSAGE-----",
        "-----BEGIN AGE ENCRYPTED FILE-----\nYWdl\n-----END AGE ENCRYPTED "
        "FILE-----"}) {
    EXPECT_TRUE(IsEncryptedBlob(blob)) << blob;
  }
  std::string kms = "AQICAHh" + std::string(120, 'x') + "==";
  EXPECT_TRUE(IsEncryptedBlob(kms));
  EXPECT_FALSE(IsEncryptedBlob("AQICAHhshort"));
  EXPECT_FALSE(IsEncryptedBlob("ENC[unterminated"));
  EXPECT_FALSE(IsEncryptedBlob("hunter2-Secret!"));
}

TEST(StrongSecretTest, LengthClassesAndEntropy) {
  for (const char* strong :
       {"q9Zx3Lk_wP0", "hunter2-Secret!", "k8s-Pa55word", "Rds-M4ster-Pw-2024",
        "my-db-password-1", "c2a7f0e94b1d4e7a"}) {
    EXPECT_TRUE(IsStrongSecret(strong)) << strong;
  }
  for (const char* weak :
       {"Private", "production", "changeme", "hunter2", "aaaaaaaa11",
        "abababab12", "12345678", "PASSWORDS", "  ab1  "}) {
    EXPECT_FALSE(IsStrongSecret(weak)) << weak;
  }
}

}  // namespace
}  // namespace pstate::detect
