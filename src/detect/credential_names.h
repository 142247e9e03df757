// Property names that hold credentials, for `pstate scan`'s "plaintext value
// under a credential-looking name" rule.
//
// Rule. The name is split into lower-case words at camelCase humps, acronym
// ends ("APIKey" -> api key), and any non-alphanumeric character (_ - . / :
// space); digits stay with the word before them. Then:
//  1. Trailing words that only describe an encoding or version are dropped:
//     value(s), pem, openssh, pkcs1, pkcs8, der, b64, base64, hex, encoded,
//     plain, plaintext, raw, text, json, bytes, binary, data, content(s), wo,
//     v<N> and bare numbers ("privateKeyPem" -> private key,
//     "sesSmtpPasswordV4" -> ses smtp password). Trailing digits of the last
//     word are ignored ("password2").
//  2. The last word left is the head, as in English compounds: the name is a
//     credential only when the head is a credential noun:
//       password passwd pwd passphrase secret(s) token(s) credential(s) creds
//       kubeconfig authorization apikey privatekey secretkey accesskey
//       accountkey masterkey clientsecret accesstoken authtoken sastoken
//       connectionstring(s) (the concatenated forms cover all-lower-case
//       names), or
//       auth alone or as "basic auth",
//       key(s) after a modifier naming a secret key: private api secret
//       access account master shared signing primary secondary readonly admin
//       client auth subscription hmac webhook encryption decryption license
//       tls ssl storage root session app service integration raw server
//       deploy ("publicKey", "keyName", "sshKey" are not: an SSH key is
//       usually the public half; private ones are caught by
//       DetectCredentialFormat),
//       string(s) after connection or secret, config after kube.
//     So passwordLength, passwordPolicy, tokenTtl, tokenExpiry, secretName,
//     secretArn, secretId, keyName, accessKeyId, passwordLastUsed,
//     secretsManagerArn, credentialsProvider, secretKeyRef are not.
//  3. A head written as one lower-case word also matches when it ends with
//  password,
//     passwd, passphrase, secret, token, credentials or one of the
//     concatenated key/string forms above ("dbpassword", "clientsecret").
//  4. Exceptions: token after next, page, pagination, continuation,
//     idempotency or creation is a paging/idempotency handle; a name whose
//     first word is a flag or limit (require, enable, disable, use, allow,
//     has, is, should, min, max, minimum, maximum, no, skip, ignore, generate,
//     create, reset, rotate, show, hide, force, must, manage, include, num,
//     number, count, auto, with, without, can) names a setting
//     about a credential, not one ("requirePassword", "enableTokenAuth",
//     "minPasswordLength", "manageMasterUserPassword"); a hash, hashed,
//     encrypted, salted or masked modifier anywhere before the head means the
//     value is not plaintext ("encryptedSecret", "hashedPassword";
//     "passwordHash" already fails rule 2).
//  5. A Kubernetes "Kind/version" token ("Secret/v1", "Secret.core/v1",
//     "apps/v1beta1": the keys of a Helm Release's resourceNames, which list
//     object names) is a type, not a property: the name is not a credential.
#ifndef PSTATE_DETECT_CREDENTIAL_NAMES_H_
#define PSTATE_DETECT_CREDENTIAL_NAMES_H_

#include <string>
#include <string_view>
#include <vector>

namespace pstate::detect {

/// True when a property named `name` holds a credential (rule above).
bool IsCredentialPropertyName(std::string_view name);

/// The lower-case words of `name` as split by the rule above (exposed for
/// tests and for explaining a finding).
std::vector<std::string> SplitNameWords(std::string_view name);

}  // namespace pstate::detect

#endif  // PSTATE_DETECT_CREDENTIAL_NAMES_H_
