// Command shorty is a tiny URL shortener used by the docs site.
// For now it keeps everything in memory; a Redis backend is planned.
package main

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
)

// Store is what the service needs from a backend.
type Store interface {
	Get(code string) (string, error)
	Put(code, url string) error
	Codes() []string
}

var ErrNotFound = errors.New("not found")

// MemStore is the in-memory backend.
type MemStore struct {
	mu   sync.Mutex
	urls map[string]string
	hits int
}

func (m *MemStore) Get(code string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.hits++
	u, ok := m.urls[code]
	if !ok {
		return "", ErrNotFound
	}
	return u, nil
}

func (m *MemStore) Put(code, url string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.urls == nil {
		m.urls = make(map[string]string)
	}
	m.urls[code] = url
	return nil
}

func (m *MemStore) Codes() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, 0, len(m.urls))
	for c := range m.urls {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// Service wraps a Store with validation and code generation.
type Service struct {
	store  Store
	prefix string
	next   int
}

func NewService(s Store, prefix string) *Service {
	return &Service{store: s, prefix: prefix}
}

const alphabet = "abcdefghijkmnpqrstuvwxyz23456789"

func encode(n int) string {
	if n == 0 {
		return string(alphabet[0])
	}
	var b strings.Builder
	for n > 0 {
		b.WriteByte(alphabet[n%len(alphabet)])
		n /= len(alphabet)
	}
	return b.String()
}

func (s *Service) Shorten(url string) (string, error) {
	if !strings.HasPrefix(url, "https://") {
		return "", fmt.Errorf("refusing non-https url %q", url)
	}
	s.next++
	code := encode(s.next)
	if err := s.store.Put(code, url); err != nil {
		return "", err
	}
	return s.prefix + code, nil
}

func (s *Service) Resolve(short string) (string, error) {
	return s.store.Get(strings.TrimPrefix(short, s.prefix))
}

func main() {
	var mem MemStore
	svc := NewService(mem, "https://go.example.org/")
	for _, u := range []string{
		"https://example.org/docs/install",
		"https://example.org/docs/faq#proxy",
		"http://insecure.example.org/",
	} {
		short, err := svc.Shorten(u)
		if err != nil {
			fmt.Fprintln(os.Stderr, "shorty:", err)
			continue
		}
		fmt.Println(short, "->", u)
	}
	fmt.Println("codes:", strings.Join(mem.Codes(), ","))
}
