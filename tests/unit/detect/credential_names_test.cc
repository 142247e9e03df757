#include "detect/credential_names.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pstate::detect {
namespace {

TEST(SplitNameWordsTest, SplitsCaseAndSeparators) {
  using W = std::vector<std::string>;
  EXPECT_EQ(SplitNameWords("secretAccessKey"), (W{"secret", "access", "key"}));
  EXPECT_EQ(SplitNameWords("AWS_SECRET_ACCESS_KEY"),
            (W{"aws", "secret", "access", "key"}));
  EXPECT_EQ(SplitNameWords("x-api-key"), (W{"x", "api", "key"}));
  EXPECT_EQ(SplitNameWords("APIKey"), (W{"api", "key"}));
  EXPECT_EQ(SplitNameWords("oauth2Token"), (W{"oauth2", "token"}));
  EXPECT_EQ(SplitNameWords("tls.key"), (W{"tls", "key"}));
  EXPECT_EQ(SplitNameWords("sesSmtpPasswordV4"),
            (W{"ses", "smtp", "password", "v4"}));
  EXPECT_EQ(SplitNameWords(""), W{});
  EXPECT_EQ(SplitNameWords("__"), W{});
}

TEST(CredentialNameTest, CredentialNames) {
  for (const char* name : {"password",
                           "Password",
                           "PASSWORD",
                           "passwd",
                           "pwd",
                           "dbPwd",
                           "adminPassword",
                           "administratorLoginPassword",
                           "master_password",
                           "DB_PASSWORD",
                           "db-password",
                           "sesSmtpPasswordV4",
                           "password2",
                           "passwordData",
                           "passphrase",
                           "keyStorePassword",
                           "secret",
                           "clientSecret",
                           "client_secret",
                           "secretKey",
                           "secret_access_key",
                           "AWS_SECRET_ACCESS_KEY",
                           "secretString",
                           "webhookSecret",
                           "token",
                           "accessToken",
                           "authToken",
                           "apiToken",
                           "refreshToken",
                           "sessionToken",
                           "sasToken",
                           "oauth2Token",
                           "privateKey",
                           "private_key",
                           "private_key_pem",
                           "privateKeyPem",
                           "privateKeyOpenssh",
                           "tlsPrivateKey",
                           "tls.key",
                           "clientKeyData",
                           "apiKey",
                           "api_key",
                           "x-api-key",
                           "APIKey",
                           "apikey",
                           "accessKey",
                           "primaryAccessKey",
                           "primaryKey",
                           "secondaryKey",
                           "primaryMasterKey",
                           "primaryReadonlyKey",
                           "storageAccountKey",
                           "accountKey",
                           "connectionString",
                           "primaryConnectionString",
                           "connection_strings",
                           "kubeconfig",
                           "kubeConfig",
                           "kube_config_raw",
                           "credentials",
                           "awsCredentials",
                           "credentialsJson",
                           "creds",
                           "auth",
                           "basicAuth",
                           "authorization",
                           "authKey",
                           "dbpassword",
                           "clientsecret",
                           "rootpassword",
                           "connectionstring",
                           "db_adminpassword",
                           "secrets",
                           "tokens"}) {
    EXPECT_TRUE(IsCredentialPropertyName(name)) << name;
  }
}

TEST(CredentialNameTest, SettingsAndReferencesAreNotCredentials) {
  for (const char* name : {"passwordLength",
                           "passwordPolicy",
                           "tokenTtl",
                           "secretName",
                           "secretArn",
                           "secretId",
                           "keyName",
                           "publicKey",
                           "public_key_openssh",
                           "tokenExpiry",
                           "passwordLastUsed",
                           "requirePassword",
                           "enableTokenAuth",
                           "minPasswordLength",
                           "secretsManagerArn",
                           "credentialsProvider",
                           "accessKeyId",
                           "access_key_id",
                           "secretKeyRef",
                           "passwordHash",
                           "hashedPassword",
                           "encryptedSecret",
                           "encryptedPassword",
                           "passwordResetRequired",
                           "manageMasterUserPassword",
                           "isSecret",
                           "additionalSecretOutputs",
                           "nextToken",
                           "next_token",
                           "pageToken",
                           "idempotencyToken",
                           "creationToken",
                           "tokenType",
                           "tokenUrl",
                           "tokenEndpoint",
                           "authType",
                           "authMode",
                           "key",
                           "keys",
                           "sshKey",
                           "sshKeys",
                           "keyPair",
                           "hashKey",
                           "rangeKey",
                           "kmsKeyId",
                           "keyFingerprint",
                           "passwordFile",
                           "secretVersion",
                           "credentialType",
                           "userData",
                           "data",
                           "value",
                           "id",
                           "name",
                           "",
                           "requirepassword",
                           "nexttoken",
                           "passwordlength",
                           "certificate",
                           "clientCertificate",
                           "encryptedKey",
                           "enableAuth",
                           "minimumPasswordLength",
                           "allowUsersToChangePassword"}) {
    EXPECT_FALSE(IsCredentialPropertyName(name)) << name;
  }
}

TEST(CredentialNamesTest, KubernetesKindVersionTokensAreNotNames) {
  // Keys of a Helm Release's resourceNames list object names (§5c).
  for (const char* token :
       {"Secret/v1", "Secret.core/v1", "apps/v1beta1", "Deployment.apps/v1",
        "SealedSecret.bitnami.com/v1alpha1"}) {
    EXPECT_FALSE(IsCredentialPropertyName(token)) << token;
  }
  // A '/' alone does not make a name harmless.
  EXPECT_TRUE(IsCredentialPropertyName("db/password"));
  EXPECT_TRUE(IsCredentialPropertyName("vault.hashicorp.com/secret"));
}

}  // namespace
}  // namespace pstate::detect
