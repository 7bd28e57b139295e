// Tiny metrics registry with a text exporter (Prometheus-like format).
// Every metric type exposes its sample type as `value_type`; the exporter
// is generic over the metric type.
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace metrics {

struct Counter {
    using value_type = std::uint64_t;
    value_type total = 0;
    void inc(value_type by = 1) { total += by; }
    value_type read() const { return total; }
};

struct Gauge {
    // Gauges go up and down; stored as a double.
    double current = 0.0;
    void set(double v) { current = v; }
    void add(double d) { current += d; }
    double read() const { return current; }
};

struct Histogram {
    using value_type = double;
    std::vector<double> bounds{0.01, 0.1, 1.0, 10.0};
    std::vector<std::uint64_t> buckets = std::vector<std::uint64_t>(5, 0);
    void observe(double v) {
        std::size_t i = 0;
        while (i < bounds.size() && v > bounds[i]) ++i;
        ++buckets[i];
    }
    value_type read() const {
        double n = 0;
        for (auto b : buckets) n += double(b);
        return n;
    }
};

template <typename M>
struct Family {
    std::string name;
    std::string help;
    std::map<std::string, M> by_label;

    M& with(const std::string& label) { return by_label[label]; }
};

// Collect the current value of every series of a family.
template <typename M>
std::vector<typename M::value_type> samples(const Family<M>& fam) {
    std::vector<typename M::value_type> out;
    out.reserve(fam.by_label.size());
    for (const auto& kv : fam.by_label) out.push_back(kv.second.read());
    return out;
}

template <typename M>
std::string render(const Family<M>& fam) {
    std::ostringstream os;
    os << "# HELP " << fam.name << ' ' << fam.help << '\n';
    std::size_t i = 0;
    auto values = samples(fam);
    for (const auto& kv : fam.by_label)
        os << fam.name << "{path=\"" << kv.first << "\"} " << values[i++] << '\n';
    return os.str();
}

}  // namespace metrics

static std::string scrape(metrics::Family<metrics::Counter>& requests,
                          metrics::Family<metrics::Gauge>& inflight,
                          metrics::Family<metrics::Histogram>& latency) {
    std::string page;
    page += metrics::render(requests);
    page += metrics::render(latency);
    page += metrics::render(inflight);
    return page;
}

int main() {
    metrics::Family<metrics::Counter> requests{"http_requests_total", "Requests.", {}};
    metrics::Family<metrics::Gauge> inflight{"http_inflight", "In flight.", {}};
    metrics::Family<metrics::Histogram> latency{"http_latency_seconds", "Latency.", {}};

    requests.with("/").inc();
    requests.with("/api").inc(3);
    inflight.with("/api").set(2);
    latency.with("/").observe(0.042);
    latency.with("/api").observe(1.7);

    std::string page = scrape(requests, inflight, latency);
    return page.empty() ? 1 : 0;
}
