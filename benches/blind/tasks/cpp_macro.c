/* ringbuf.c - lock-free single-producer ring buffer (config + logging) */

#define RB_VERSION_MAJOR 2
#define RB_VERSION_MINOR 4
#define RB_STR_(x) #x
#define RB_STR(x) RB_STR_(x)
#define RB_VERSION RB_STR(RB_VERSION_MAJOR) "." RB_STR(RB_VERSION_MINOR)

#ifndef RB_CONFIG_LOG_LEVEL
# ifdef NDEBUG
#  define RB_CONFIG_LOG_LEVEL 1
# else
#  define RB_CONFIG_LOG_LEVEL 3
# endif
#endif

#define RB_LOG_ERROR 1
#define RB_LOG_WARN  2
#define RB_LOG_TRACE 3

#define RB_CAT_(a, b) a##b
#define RB_CAT(a, b) RB_CAT_(a, b)
#define RB_UNUSED(x) ((void)(x))

#define RB_LOG_IMPL(lvl, fmt, ...) \
    rb_log_write((lvl), __FILE__, __LINE__, fmt, ##__VA_ARGS__)

#if RB_CONFIG_LOG_LEVEL >= RB_LOG_TRACE
# define RB_TRACE(fmt, ...) RB_LOG_IMPL(RB_LOG_TRACE, fmt, ##__VA_ARGS__)
#else
# define RB_TRACE(fmt, ...) do { } while (0)
#endif
#define RB_WARN(fmt, ...) RB_LOG_IMPL(RB_LOG_WARN, fmt, ##__VA_ARGS__)

#define RB_IS_POW2(n) (((n) & ((n) - 1)) == 0)
#define RB_MASK(rb) ((rb)->capacity - 1)
#define RB_SLOT(rb, i) (&(rb)->slots[(i) & RB_MASK(rb)])

typedef unsigned long rb_size_t;

struct rb_slot { void *item; rb_size_t seq; };

struct ringbuf {
    rb_size_t capacity;
    rb_size_t head;
    rb_size_t tail;
    struct rb_slot *slots;
};

extern void rb_log_write(int lvl, const char *file, int line, const char *fmt, ...);

static const char rb_banner[] = "ringbuf " RB_VERSION;

int rb_init(struct ringbuf *rb, struct rb_slot *slots, rb_size_t cap)
{
    if (!RB_IS_POW2(cap)) {
        RB_WARN("capacity %lu is not a power of two", cap);
        return -1;
    }
    rb->capacity = cap;
    rb->head = rb->tail = 0;
    rb->slots = slots;
    RB_TRACE("init %p cap=%lu", (void *)rb, cap);
    return 0;
}

int rb_push(struct ringbuf *rb, void *item)
{
    struct rb_slot *s;
    if (rb->head - rb->tail == rb->capacity) {
        RB_TRACE("full: head=%lu tail=%lu", rb->head, rb->tail;
        return -1;
    }
    s = RB_SLOT(rb, rb->head);
    s->item = item;
    s->seq = rb->head++;
    return 0;
}

void *rb_pop(struct ringbuf *rb)
{
    struct rb_slot *s;
    void *item;
    if (rb->head == rb->tail)
        return 0;
    s = RB_SLOT(rb, rb->tail);
    item = s->item;
    rb->tail++;
    RB_TRACE("pop seq=%lu", s->seq);
    return item;
}

const char *rb_version(void)
{
    RB_UNUSED(rb_banner);
    return rb_banner;
}
