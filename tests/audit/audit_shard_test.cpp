// --shard K/N: parsing, and a partition in which every path lands in exactly one shard.
#include <string>

#include <gtest/gtest.h>

#include "analyzers/core/content_hash.h"
#include "analyzers/audit/shard.h"

using kgate::audit::in_shard;
using kgate::audit::parse_shard;

TEST(AuditShard, ParsesKOverN) {
  auto shard = parse_shard("2/4");
  ASSERT_TRUE(shard) << shard.error();
  EXPECT_EQ(shard->index, 2u);
  EXPECT_EQ(shard->count, 4u);
}

TEST(AuditShard, RejectsMalformedAndOutOfRange) {
  for (const char* bad : {"", "2", "/4", "2/", "0/4", "5/4", "1/0", "a/b", "1/2/3", "-1/2", "1 /2"})
    EXPECT_FALSE(parse_shard(bad)) << bad;
}

TEST(AuditShard, EveryPathInExactlyOneShard) {
  constexpr unsigned kShards = 5;
  unsigned per_shard[kShards] = {};
  for (int i = 0; i < 1000; ++i) {
    const std::string path = "corpus/dir" + std::to_string(i % 7) + "/file_" + std::to_string(i) + ".py";
    unsigned hits = 0;
    for (unsigned k = 1; k <= kShards; ++k)
      if (in_shard(path, {k, kShards})) {
        ++hits;
        ++per_shard[k - 1];
      }
    EXPECT_EQ(hits, 1u) << path;
  }
  for (unsigned k = 0; k < kShards; ++k) EXPECT_GT(per_shard[k], 120u) << "shard " << k + 1 << " is badly unbalanced";
}

TEST(AuditShard, OneShardHoldsEverything) { EXPECT_TRUE(in_shard("any/path.py", {1, 1})); }

TEST(AuditContentHash, Sha256OfKnownInputs) {
  EXPECT_EQ(kgate::sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(kgate::sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}
