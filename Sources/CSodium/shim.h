// libsodium, for Argon2id password hashes (crypto_pwhash_str) and random bytes.
#include <sodium.h>
