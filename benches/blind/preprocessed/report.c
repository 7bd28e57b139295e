#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <ctype.h>

struct record { char name[32]; int qty; double price; };

static int parse_line(const char *line, struct record *r) {
    char buf[128];
    strncpy(buf, line, sizeof buf - 1);
    buf[sizeof buf - 1] = 0;
    char *tok = strtok(buf, ",");
    if (!tok) return -1;
    strncpy(r->name, tok, sizeof r->name - 1);
    tok = strtok(NULL, ",");
    if (!tok) return -1;
    r->qty = atoi(tok);
    tok = strtok(NULL, ",");
    if (!tok) return -1;
    r->price = strtod(tok, NULL);
    return 0;
}

static double total(const struct record *rs, size_t n) {
    double t = 0;
    for (size_t i = 0; i < n; i++) t += rs[i].qty * rs[i].price;
    return t;
}

static void report(const struct record *rs, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const char *label = rs[i].name;
        if (isupper((unsigned char)label[0]))
            printf("%-20s %5d %8.2f\n", label, rs[i].qty, rs[i].price);
        else
            printf("%-20s %5d %8d\n", label, rs[i].qty, label);
    }
    printf("total %.2f (sqrt %.3f)\n", total(rs, n), sqrt(total(rs, n)));
}

int main(int argc, char **argv) {
    struct record rs[16];
    size_t n = 0;
    char line[256];
    FILE *f = argc > 1 ? fopen(argv[1], "r") : stdin;
    if (!f) { perror("open"); return 1; }
    while (n < 16 && fgets(line, sizeof line, f)) {
        if (parse_line(line, &rs[n]) == 0) n++;
    }
    report(rs, n);
    return 0;
}
