// SPDX-License-Identifier: GPL-3.0-or-later
/* scripts/bench scan-impact's probe: what another client of the server feels. On its own
 * connection it sends one PING every 5 ms (on a fixed schedule, so a slow reply does not
 * thin out the probes that follow it) and times each round trip, until SECONDS have passed
 * or it gets SIGTERM/SIGINT; then prints one line: probes, average, p99 and max in ms.
 * Usage: latency_probe PORT [SECONDS=3600] [INTERVAL_MS=5] */
#include <hiredis/hiredis.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
    (void)sig;
    stop = 1;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: latency_probe PORT [SECONDS=3600] [INTERVAL_MS=5]\n");
        return 2;
    }
    const double seconds = argc > 2 ? atof(argv[2]) : 3600;
    const double interval = (argc > 3 ? atof(argv[3]) : 5) / 1000.0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: a signal ends the sleep at once */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    redisContext *c = redisConnect("127.0.0.1", atoi(argv[1]));
    if (!c || c->err) {
        fprintf(stderr, "connect: %s\n", c ? c->errstr : "out of memory");
        return 1;
    }
    size_t cap = 1 << 16, n = 0;
    double *ms = malloc(cap * sizeof *ms);
    const double start = now();
    double next = start;
    while (!stop && now() - start < seconds) {
        const double t0 = now();
        redisReply *r = redisCommand(c, "PING");
        const double t1 = now();
        if (!r) {
            fprintf(stderr, "PING: %s\n", c->errstr);
            return 1;
        }
        freeReplyObject(r);
        if (n == cap)
            ms = realloc(ms, (cap *= 2) * sizeof *ms);
        ms[n++] = (t1 - t0) * 1000.0;
        next += interval;
        const double wait = next - now();
        if (wait > 0) {
            struct timespec d = {(time_t)wait, (long)((wait - (time_t)wait) * 1e9)};
            nanosleep(&d, NULL);
        } else {
            next = now(); /* behind schedule: do not fire a burst to catch up */
        }
    }
    if (n == 0) {
        printf("probes 0\n");
        return 0;
    }
    double sum = 0;
    for (size_t i = 0; i < n; ++i)
        sum += ms[i];
    qsort(ms, n, sizeof *ms, by_value);
    const size_t p99 = (size_t)((double)(n - 1) * 0.99);
    printf("probes %zu over %.1f s: avg %.3f ms, p99 %.3f ms, max %.3f ms\n", n, now() - start,
           sum / (double)n, ms[p99], ms[n - 1]);
    free(ms);
    redisFree(c);
    return 0;
}
