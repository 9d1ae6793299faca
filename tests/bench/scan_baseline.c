// SPDX-License-Identifier: GPL-3.0-or-later
/* The scan benchmark's baseline: the least a client can do to read a keyspace's values and
 * TTLs. SCAN COUNT 1000, then PTTL and GET for every key of the page, pipelined, replies
 * read and freed; one page at a time, as a careful hand-written tool would.
 * Usage: scan_baseline PORT [COUNT=1000] */
#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: scan_baseline PORT [COUNT=1000]\n");
        return 2;
    }
    const char *count = argc > 2 ? argv[2] : "1000";
    redisContext *c = redisConnect("127.0.0.1", atoi(argv[1]));
    if (!c || c->err) {
        fprintf(stderr, "connect: %s\n", c ? c->errstr : "out of memory");
        return 1;
    }
    const double start = now();
    char cursor[32] = "0";
    long long keys = 0, values = 0, errors = 0;
    do {
        redisReply *page = redisCommand(c, "SCAN %s COUNT %s", cursor, count);
        if (!page || page->type != REDIS_REPLY_ARRAY || page->elements != 2) {
            fprintf(stderr, "SCAN failed: %s\n", page ? page->str : c->errstr);
            return 1;
        }
        snprintf(cursor, sizeof cursor, "%s", page->element[0]->str);
        const redisReply *list = page->element[1];
        for (size_t i = 0; i < list->elements; ++i) {
            const redisReply *k = list->element[i];
            redisAppendCommand(c, "PTTL %b", k->str, (size_t)k->len);
            redisAppendCommand(c, "GET %b", k->str, (size_t)k->len);
        }
        for (size_t i = 0; i < 2 * list->elements; ++i) {
            redisReply *r = NULL;
            if (redisGetReply(c, (void **)&r) != REDIS_OK) {
                fprintf(stderr, "read: %s\n", c->errstr);
                return 1;
            }
            if (r->type == REDIS_REPLY_STRING)
                ++values;
            else if (r->type == REDIS_REPLY_ERROR)
                ++errors;
            freeReplyObject(r);
        }
        keys += (long long)list->elements;
        freeReplyObject(page);
    } while (strcmp(cursor, "0") != 0);
    const double secs = now() - start;
    printf("baseline: %lld keys, %lld values, %lld errors in %.3f s\n", keys, values, errors, secs);
    redisFree(c);
    return 0;
}
