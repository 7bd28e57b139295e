#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct node {
    int key;
    double value;
    struct node *left;
    struct node *right;
} node_t;

typedef struct tree {
    node_t *root;
    size_t size;
} tree_t;

static node_t *new_node(int key, double value)
{
    node_t *n = malloc(sizeof *n);
    if (!n)
        return NULL;
    n->key = key;
    n->value = value;
    n->left = NULL;
    n->right = NULL;
    return n;
}

static void tree_insert(tree_t *t, int key, double value)
{
    node_t **slot = &t->root;
    while (*slot) {
        if (key < (*slot)->key)
            slot = &(*slot)->left;
        else if (key > (*slot)->key)
            slot = &(*slot)->right;
        else {
            (*slot)->value = value;
            return;
        }
    }
    *slot = new_node(key, value);
    t->size++;
}

static double *tree_find(tree_t *t, int key)
{
    node_t *n = t->root;
    while (n) {
        if (key == n->key)
            return &n->value;
        n = key < n->key ? n->left : n->right;
    }
    return NULL;
}

static int tree_height(const node_t *n)
{
    if (!n)
        return 0;
    int l = tree_height(n->left);
    int r = tree_height(n->right);
    return 1 + (l > r ? l : r);
}

static void tree_free(node_t *n)
{
    if (!n)
        return;
    tree_free(n->left);
    tree_free(n->right);
    free(n);
}

static int collect_keys(const node_t *n, int *out, int pos)
{
    if (!n)
        return pos;
    pos = collect_keys(n->left, out, pos);
    out[pos++] = n->key;
    return collect_keys(n->right, out, pos);
}

static double sum_values(tree_t *t, const int *keys, int count)
{
    double sum = 0.0;
    for (int i = 0; i < count; i++) {
        int *found = tree_find(t, keys[i]);
        if (found)
            sum += *found;
    }
    return sum;
}

int main(void)
{
    tree_t t = { NULL, 0 };
    int keys[] = { 50, 30, 70, 20, 40, 60, 80 };
    int nkeys = (int)(sizeof keys / sizeof keys[0]);
    for (int i = 0; i < nkeys; i++)
        tree_insert(&t, keys[i], keys[i] * 1.5);
    int *sorted = calloc(t.size, sizeof *sorted);
    int got = collect_keys(t.root, sorted, 0);
    double total = sum_values(&t, sorted, got);
    int h = tree_height(t.root);
    char buf[64];
    memset(buf, 0, sizeof buf);
    if (total > 100.0 && h < 10)
        buf[0] = 'y';
    free(sorted);
    tree_free(t.root);
    return buf[0] == 'y' ? 0 : 1;
}
