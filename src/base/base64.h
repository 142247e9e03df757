// Base64 decoded the way Go's encoding/base64 does. Standard base64 (RFC 4648
// section 4, with '=' padding) is Go's StdEncoding, the codec of every base64
// field in a Pulumi state (salts, nonces, ciphertexts, b64 secrets, byte
// strings); unpadded base64url (RFC 4648 section 5) is Go's RawURLEncoding,
// the codec of a JWT's parts (which the credential detectors decode).
#ifndef PSTATE_BASE_BASE64_H_
#define PSTATE_BASE_BASE64_H_

#include <string>
#include <string_view>

#include "base/result.h"

namespace pstate {

enum class Base64Encoding {
  /// Go's StdEncoding: A-Z a-z 0-9 + /, '=' padding required.
  kStd,
  /// Go's RawURLEncoding: A-Z a-z 0-9 - _, no padding ('=' is an error);
  /// a last group of 2 or 3 characters stands for 1 or 2 bytes, a last
  /// group of 1 character is an error.
  kRawUrl,
};

/// Standard base64 of `bytes`, padded with '=' to a multiple of 4 characters.
std::string Base64Encode(std::string_view bytes);

/// Decodes base64 with Go's default (non-strict) rules; for kStd:
/// - the alphabet is A-Z a-z 0-9 + / and padding is required, so the text
///   (after dropping newlines) must be a multiple of 4 characters; "" decodes
///   to "";
/// - '\r' and '\n' are ignored anywhere (Go skips them); any other character
///   outside the alphabet, including spaces, is an error;
/// - nothing may follow the padding;
/// - non-zero unused bits in the last character are accepted (Go only rejects
///   them in Strict mode), so "QR==" decodes like "QQ==".
/// kRawUrl differs only in the alphabet and the padding (see above).
/// Errors are Errc::kSyntax and name the offending offset, never the text.
Result<std::string> Base64Decode(
    std::string_view text, Base64Encoding encoding = Base64Encoding::kStd);

/// True when Base64Decode(text, encoding) would succeed (without
/// allocating).
bool IsBase64(std::string_view text,
              Base64Encoding encoding = Base64Encoding::kStd);

/// The number of bytes Base64Decode(text, encoding) yields, or -1 when it
/// would fail.
long long Base64DecodedSize(std::string_view text,
                            Base64Encoding encoding = Base64Encoding::kStd);

}  // namespace pstate

#endif  // PSTATE_BASE_BASE64_H_
