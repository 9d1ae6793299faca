// Writes RESP for a synthetic inventory keyspace to stdout, for `redis-cli --pipe`:
// N SKUs, each with a stock key (no TTL) and R receipts with random TTLs up to 7 days.
// Usage: seed_keyspace SKUS [RECEIPTS_PER_SKU=9] [SEED=1]
// Plain C++ with no Qt: 10 million keys are generated in seconds.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

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

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: seed_keyspace SKUS [RECEIPTS_PER_SKU=9] [SEED=1]\n");
        return 2;
    }
    const long skus = std::atol(argv[1]);
    const long perSku = argc > 2 ? std::atol(argv[2]) : 9;
    std::mt19937_64 rng(argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1);
    const long long weekMs = 7LL * 24 * 3600 * 1000;
    long long order = 100000000;
    for (long s = 0; s < skus; ++s) {
        const std::string sku = "sku-" + std::to_string(s + 1);
        const long long stock = static_cast<long long>(rng() % 100000);
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
        flushIfFull();
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
