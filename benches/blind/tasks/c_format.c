/* ringstat.c - keep per-endpoint latency statistics in a ring buffer and
 * dump a summary on SIGUSR1 or at exit.
 *
 * Build: cc -std=c11 -Wall -Werror=format -O2 -o ringstat ringstat.c
 */
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RING_SIZE 64
#define MAX_ENDPOINTS 8

typedef unsigned long long counter_t;
typedef double millis_t;

enum log_level { LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR };

static enum log_level min_level = LOG_INFO;
static const char *level_names[] = { "debug", "info", "warn", "error" };

static void logmsg(enum log_level lvl, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#define LOG_D(...) logmsg(LOG_DEBUG, __VA_ARGS__)
#define LOG_I(...) logmsg(LOG_INFO, __VA_ARGS__)
#define LOG_W(...) logmsg(LOG_WARN, __VA_ARGS__)

struct ring {
    millis_t samples[RING_SIZE];
    unsigned head;
    unsigned used;
};

struct endpoint {
    char name[32];
    struct ring ring;
    counter_t requests;
    counter_t failures;
    millis_t worst;
};

static struct endpoint endpoints[MAX_ENDPOINTS];
static size_t n_endpoints;
static volatile sig_atomic_t dump_requested;

static void logmsg(enum log_level lvl, const char *fmt, ...)
{
    va_list ap;
    if (lvl < min_level)
        return;
    fprintf(stderr, "[%s] ", level_names[lvl]);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void ring_push(struct ring *r, millis_t v)
{
    r->samples[r->head] = v;
    r->head = (r->head + 1) % RING_SIZE;
    if (r->used < RING_SIZE)
        r->used++;
}

static millis_t ring_mean(const struct ring *r)
{
    millis_t sum = 0;
    for (unsigned i = 0; i < r->used; i++)
        sum += r->samples[i];
    return r->used ? sum / r->used : 0;
}

static struct endpoint *endpoint_get(const char *name)
{
    for (size_t i = 0; i < n_endpoints; i++)
        if (strcmp(endpoints[i].name, name) == 0)
            return &endpoints[i];
    if (n_endpoints == MAX_ENDPOINTS) {
        LOG_W("too many endpoints, dropping %s", name);
        return NULL;
    }
    struct endpoint *ep = &endpoints[n_endpoints++];
    memset(ep, 0, sizeof *ep);
    snprintf(ep->name, sizeof ep->name, "%s", name);
    LOG_D("new endpoint %s (#%zu)", name, n_endpoints);
    return ep;
}

static void record(const char *name, millis_t ms, int ok)
{
    struct endpoint *ep = endpoint_get(name);
    if (!ep)
        return;
    ep->requests++;
    if (!ok)
        ep->failures++;
    if (ms > ep->worst)
        ep->worst = ms;
    ring_push(&ep->ring, ms);
}

static double failure_rate(const struct endpoint *ep)
{
    return ep->requests ? (double)ep->failures / (double)ep->requests : 0.0;
}

static void dump_one(const struct endpoint *ep)
{
    LOG_I("%-12s mean %.2f ms, worst %.2f ms, %u samples",
          ep->name, ring_mean(&ep->ring), ep->worst, ep->ring.used);
    if (failure_rate(ep) > 0.05)
        LOG_W("%-12s %lu of %llu requests failed",
              ep->name, ep->failures, ep->requests);
}

static void dump_all(void)
{
    LOG_I("%zu endpoints", n_endpoints);
    for (size_t i = 0; i < n_endpoints; i++)
        dump_one(&endpoints[i]);
}

static void on_usr1(int sig)
{
    (void)sig;
    dump_requested = 1;
}

int main(int argc, char **argv)
{
    static const char *names[] = { "/login", "/search", "/cart", "/checkout" };
    unsigned rounds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1000;

    if (getenv("RINGSTAT_DEBUG"))
        min_level = LOG_DEBUG;
    signal(SIGUSR1, on_usr1);
    srand((unsigned)time(NULL));

    for (unsigned i = 0; i < rounds; i++) {
        const char *name = names[rand() % 4];
        millis_t ms = 5.0 + (rand() % 5000) / 10.0;
        record(name, ms, rand() % 17 != 0);
        if (dump_requested) {
            dump_requested = 0;
            dump_all();
        }
    }
    dump_all();
    return 0;
}
