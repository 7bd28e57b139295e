#include <stdio.h>
#include <string.h>

#define unused_never_expanded 0

struct histogram {
    int bins[10];
    int total;
    const char *label;
};

static void hist_init(struct histogram *h, const char *label)
{
    memset(h->bins, 0, sizeof h->bins);
    h->total = 0;
    h->label = label;
}

static void hist_add(struct histogram *h, int value)
{
    int bin = value / 10;
    if (bin < 0)
        bin = 0;
    if (bin > 9)
        bin = 9;
    h->bins[bin]++;
    h->total++;
}

static int hist_max(const struct histogram *h)
{
    int best = 0;
    for (int i = 1; i < 10; i++) {
        if (h->bins[i] > h->bins[best])
            best = i;
    }
    return best;
}

static int hist_last(const struct histogram *h)
{
    int sum = 0;
    for (int i = 0; i < 10; i++)
        sum += h->bins[i];
    int last[10];
    for (int i = 0; i < 10; i++)
        last[i] = h->bins[9 - i];
    return sum + last[10];
}

static void hist_print(const struct histogram *h)
{
    printf("%s (%d samples)\n", h->label, h->total);
    for (int i = 0; i < 10; i++) {
        printf("%3d-%3d: ", i * 10, i * 10 + 9);
        for (int j = 0; j < h->bins[i]; j++)
            putchar('#');
        putchar('\n');
    }
}

static int parse_values(const char *s, int *out, int max)
{
    int n = 0;
    while (*s && n < max) {
        int v = 0, neg = 0;
        while (*s == ' ' || *s == ',')
            s++;
        if (*s == '-') {
            neg = 1;
            s++;
        }
        while (*s >= '0' && *s <= '9') {
            v = v * 10 + (*s - '0');
            s++;
        }
        out[n++] = neg ? -v : v;
        if (*s && *s != ' ' && *s != ',')
            break;
    }
    return n;
}

int main(int argc, char **argv)
{
    int values[64];
    const char *text = argc > 1 ? argv[1] : "3, 14, 15, 92, 65, 35, 89, 79, 32, 38";
    int n = parse_values(text, values, 64);
    struct histogram h;
    hist_init(&h, "digits of pi");
    for (int i = 0; i < n; i++)
        hist_add(&h, values[i]);
    hist_print(&h);
    printf("mode bin: %d\n", hist_max(&h));
    printf("check: %d\n", hist_last(&h));
    return 0;
}
