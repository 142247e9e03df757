// Standard base64 (RFC 4648 section 4, with '=' padding), decoded the way Go's
// encoding/base64.StdEncoding.DecodeString does, because every base64 field in
// Pulumi state (salts, nonces, ciphertexts, b64 secrets, byte strings) is
// written and read by that codec.
#ifndef PSTATE_CRYPTO_BASE64_H_
#define PSTATE_CRYPTO_BASE64_H_

#include <string>
#include <string_view>

#include "pstate/base/result.h"

namespace pstate::crypto {

/// Standard base64 of `bytes`, padded with '=' to a multiple of 4 characters.
std::string Base64Encode(std::string_view bytes);

/// Decodes standard base64 with Go's default (non-strict) StdEncoding rules:
/// - the alphabet is A-Z a-z 0-9 + / and padding is required, so the text
///   (after dropping newlines) must be a multiple of 4 characters; "" decodes
///   to "";
/// - '\r' and '\n' are ignored anywhere (Go skips them); any other character
///   outside the alphabet, including spaces, is an error;
/// - nothing may follow the padding;
/// - non-zero unused bits in the last character are accepted (Go only rejects
///   them in Strict mode), so "QR==" decodes like "QQ==".
/// Errors are Errc::kSyntax and name the offending offset, never the text.
Result<std::string> Base64Decode(std::string_view text);

/// True when Base64Decode(text) would succeed (without allocating).
bool IsBase64(std::string_view text);

/// The number of bytes Base64Decode(text) yields, or -1 when it would fail.
long long Base64DecodedSize(std::string_view text);

}  // namespace pstate::crypto

#endif  // PSTATE_CRYPTO_BASE64_H_
