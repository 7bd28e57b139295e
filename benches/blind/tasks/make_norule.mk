# ledgerd - small accounting daemon
# Usage: make [DEBUG=1] [PREFIX=/opt/ledgerd] [all|check|install|clean]

PROJECT  := ledgerd
VERSION  := 0.8.2
PREFIX   ?= /usr/local
BUILD    := build
BIN      := $(BUILD)/$(PROJECT)

CC       ?= cc
CPPFLAGS += -Iinclude -DLEDGERD_VERSION=\"$(VERSION)\"
CFLAGS   ?= -O2
CFLAGS   += -std=c11 -Wall -Wextra -pedantic
LDLIBS   += -lm -lpthread

ifeq ($(DEBUG),1)
  CFLAGS   := $(filter-out -O2,$(CFLAGS)) -O0 -g3 -fsanitize=address
  LDFLAGS  += -fsanitize=address
endif

CORE_SRCS := main.c config.c journal.c money.c
NET_SRCS  := listener.c netio.c proto.c
STORE_SRCS = store_$(STORE).c wal.c
STORE     ?= sqlite

SRCS := $(CORE_SRCS) $(NET_SRCS) $(STORE_SRCS)
OBJS := $(patsubst %.c,$(BUILD)/%.o,$(SRCS))
DEPS := $(OBJS:.o=.d)

TESTS := $(wildcard tests/test_*.c)
TEST_BINS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TESTS))

.PHONY: all check install uninstall clean dist

all: $(BIN)

$(BIN): $(OBJS) | $(BUILD)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(OBJS): $(BUILD)/%.o: src/%.c | $(BUILD)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD):
	mkdir -p $@ $@/tests

$(BUILD)/tests/%: tests/%.c $(filter-out $(BUILD)/main.o,$(OBJS))
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS)

check: $(TEST_BINS)
	@for t in $(TEST_BINS); do echo "== $$t"; ./$$t || exit 1; done

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man8
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/
	install -m 0644 doc/$(PROJECT).8 $(DESTDIR)$(PREFIX)/share/man/man8/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/$(PROJECT)
	rm -f $(DESTDIR)$(PREFIX)/share/man/man8/$(PROJECT).8

dist:
	git archive --prefix=$(PROJECT)-$(VERSION)/ -o $(PROJECT)-$(VERSION).tar.gz HEAD

clean:
	rm -rf $(BUILD) $(PROJECT)-*.tar.gz

-include $(DEPS)
