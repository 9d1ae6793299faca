// SPDX-License-Identifier: GPL-3.0-or-later
// Writes RESP for a synthetic inventory keyspace to stdout, for `redis-cli --pipe`:
// N SKUs, each with a stock key (no TTL) and R receipts with random TTLs up to 7 days.
// Usage: seed_keyspace SKUS [RECEIPTS_PER_SKU=9] [SEED=1] [--slots FIRST-LAST[,FIRST-LAST...]]
// With --slots only the SKUs whose hash tag falls in those cluster slots are written, for one
// cluster primary's `redis-cli --pipe`; every SKU still draws its random numbers, so the
// primaries together hold exactly the keyspace one standalone server gets without --slots.
// Plain C++ (Qt only for the server's slot function): 10 million keys in seconds.
#include "redis/Slot.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

std::string out;

void arg(const char *s, size_t n)
{
    char head[32];
    const int h = std::snprintf(head, sizeof head, "$%zu\r\n", n);
    out.append(head, size_t(h));
    out.append(s, n);
    out.append("\r\n", 2);
}

void arg(const std::string &s)
{
    arg(s.data(), s.size());
}

void flushIfFull()
{
    if (out.size() > (1 << 20)) {
        std::fwrite(out.data(), 1, out.size(), stdout);
        out.clear();
    }
}

} // namespace

// "0-5460,10923-16383" -> which slots are wanted; false when it cannot be read.
bool parseSlots(const char *text, std::vector<bool> &wanted)
{
    wanted.assign(16384, false);
    const char *p = text;
    while (*p) {
        char *end = nullptr;
        const long first = std::strtol(p, &end, 10);
        if (end == p || *end != '-')
            return false;
        p = end + 1;
        const long last = std::strtol(p, &end, 10);
        if (end == p || first < 0 || last > 16383 || first > last)
            return false;
        for (long s = first; s <= last; ++s)
            wanted[size_t(s)] = true;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    std::vector<const char *> positional;
    std::vector<bool> wanted;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--slots") == 0) {
            if (i + 1 >= argc || !parseSlots(argv[++i], wanted)) {
                std::fprintf(stderr, "seed_keyspace: --slots wants FIRST-LAST[,FIRST-LAST...] "
                                     "within 0-16383\n");
                return 2;
            }
        } else {
            positional.push_back(argv[i]);
        }
    }
    if (positional.empty()) {
        std::fprintf(stderr, "usage: seed_keyspace SKUS [RECEIPTS_PER_SKU=9] [SEED=1] "
                             "[--slots FIRST-LAST[,...]]\n");
        return 2;
    }
    const long skus = std::atol(positional[0]);
    const long perSku = positional.size() > 1 ? std::atol(positional[1]) : 9;
    std::mt19937_64 rng(positional.size() > 2 ? std::strtoull(positional[2], nullptr, 10) : 1);
    const long long weekMs = 7LL * 24 * 3600 * 1000;
    long long order = 100000000;
    for (long s = 0; s < skus; ++s) {
        const std::string sku = "sku-" + std::to_string(s + 1);
        const long long stock = static_cast<long long>(rng() % 100000);
        const size_t before = out.size();
        out += "*3\r\n";
        arg("SET", 3);
        arg("stock:{" + sku + "}:available");
        arg(std::to_string(stock));
        for (long r = 0; r < perSku; ++r) {
            out += "*5\r\n";
            arg("SET", 3);
            arg("idem:{" + sku + "}:" + std::to_string(++order));
            arg(std::to_string(stock + perSku - r));
            arg("PX", 2);
            arg(std::to_string(60000 + rng() % (weekMs - 60000)));
        }
        // Generated either way (the random sequence stays the same), kept only on its node.
        if (!wanted.empty() && !wanted[size_t(redis::keySlot(QByteArray::fromStdString(sku)))])
            out.resize(before);
        flushIfFull();
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
