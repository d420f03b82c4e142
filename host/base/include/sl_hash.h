/*
** sl_hash.h — 64-bit hashes for keys made of several parts.
**
** sl_map hashes its own keys; these are for callers that first fold a composite key
** (a pid and a tid, a name and a process) into one uint64 map key.
*/
#ifndef SL_HASH_H
#define SL_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a over len bytes of p, its offset basis xor-ed with seed (chain parts by
** passing one part's hash as the next one's seed). */
uint64_t sl_fnv64(const void *p, size_t len, uint64_t seed);
/* A bijective mix of x (the finalizer of MurmurHash3): spreads nearby integers apart. */
uint64_t sl_mix64(uint64_t x);

#endif /* SL_HASH_H */
