/* opfor/hash.h — FNV-1a over a run of bytes: the one loop behind the engine's state hash, the
 * ruleset's state hash, the serialized state's check sum and the game table's hash.
 *
 * Header-only and static inline so the loop is compiled into each caller, as it was when each
 * had its own copy (the engine's state hash is on the self-play path). The start value is a
 * parameter because the hashes already handed out start from two different values and must not
 * change: saved states carry theirs, and tests pin them.
 */
#ifndef OPFOR_HASH_H
#define OPFOR_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The published FNV-1a 64-bit offset basis: a rules engine's state hash may start here. */
#define OPFOR_FNV1A_BASIS UINT64_C(0xcbf29ce484222325)
/* The start value of the ruleset, serialized-state and game-table hashes: the published basis
 * written in decimal without its last digit. Kept as it is, since those hashes are stored. */
#define OPFOR_FNV1A_BASIS_SHORT UINT64_C(1469598103934665603)
#define OPFOR_FNV1A_PRIME UINT64_C(0x100000001b3)

/* Sanitized builds skip UBSan's pointer-overflow test in the loop below: b + i stays inside
 * the caller's object (ASan still checks every byte read), and the test's comparison, which a
 * fuzz build hands to libFuzzer's hooks, cost more than the hashing on a 7 KB state. */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define OPFOR_HASH_NO_PTR_CHECK __attribute__((no_sanitize("pointer-overflow")))
#else
#define OPFOR_HASH_NO_PTR_CHECK
#endif

/* h folded with the n bytes at p, FNV-1a style (xor the byte, then multiply). */
OPFOR_HASH_NO_PTR_CHECK
static inline uint64_t opfor_fnv1a(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= OPFOR_FNV1A_PRIME;
    }
    return h;
}

#endif
