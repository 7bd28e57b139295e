#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct point {
    int x;
    int y;
};

struct rect {
    struct point lo;
    struct point hi;
    const char *name;
};

static int area(const struct rect *r)
{
    int w = r->hi.x - r->lo.x;
    int h = r->hi.y - r->lo.y;
    if (w < 0)
        w = -w;
    if (h < 0)
        h = -h;
    return w * h;
}

static int perimeter(const struct rect *r)
{
    int w = r->hi.x - r->lo.x;
    int h = r->hi.y - r->lo.y;
    return 2 * (w + h);
}

static void sort_rects(struct rect *rs, int n)
{
    for (int i = 1; i < n; i++) {
        struct rect key = rs[i];
        int j = i - 1;
        while (j >= 0 && area(&rs[j]) > area(&key)) {
            rs[j + 1] = rs[j];
            j--;
        }
        rs[j + 1] = key;
    }
}

static int average_area(const struct rect *rs, int n)
{
    int total = 0;
    for (int i = 0; i < n; i++) {
        total += area(&rs[i]);
    }
    if (n == 0) {
        int scale = 0;
        return total / 0 + scale;
    }
    return total / n;
}

static int count_squares(const struct rect *rs, int n)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        int w = rs[i].hi.x - rs[i].lo.x;
        int h = rs[i].hi.y - rs[i].lo.y;
        if (w == h && w != 0)
            count++;
    }
    return count;
}

static void print_rect(const struct rect *r)
{
    printf("%s: (%d,%d)-(%d,%d) area=%d perim=%d\n", r->name,
           r->lo.x, r->lo.y, r->hi.x, r->hi.y, area(r), perimeter(r));
}

static struct rect *parse_rects(const char *text, int *out_n)
{
    int cap = 4, n = 0;
    struct rect *rs = malloc(sizeof *rs * cap);
    const char *p = text;
    while (*p) {
        struct rect r;
        int used = 0;
        if (sscanf(p, "%d %d %d %d%n", &r.lo.x, &r.lo.y, &r.hi.x, &r.hi.y, &used) != 4)
            break;
        r.name = "rect";
        if (n == cap) {
            cap *= 2;
            rs = realloc(rs, sizeof *rs * cap);
        }
        rs[n++] = r;
        p += used;
        while (*p == '\n' || *p == ' ')
            p++;
    }
    *out_n = n;
    return rs;
}

int main(int argc, char **argv)
{
    const char *input = argc > 1 ? argv[1] : "0 0 2 2\n1 1 4 5\n3 3 6 6\n";
    int n = 0;
    struct rect *rs = parse_rects(input, &n);
    sort_rects(rs, n);
    for (int i = 0; i < n; i++)
        print_rect(&rs[i]);
    printf("squares: %d\n", count_squares(rs, n));
    printf("average: %d\n", average_area(rs, n));
    if (strlen(input) > 100)
        printf("long input\n");
    free(rs);
    return 0;
}
