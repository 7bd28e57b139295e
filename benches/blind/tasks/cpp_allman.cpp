// telemetry.cpp -- sensor sampling loop for the greenhouse controller.
// Build: g++ -std=c++17 -Wall -c telemetry.cpp

#include <cstddef>
#include <cstdint>

namespace sensor
{

struct Sample
{
    std::uint32_t tick;
    double value;
};

struct Settings
{
    int channels;
    int bucket_count;
    double low;
    double high;
    bool verbose;
} cfg = { 4, 16, -20.0, 60.0, false };

template <typename T, std::size_t N>
class Ring
{
public:
    Ring()
        : head_(0), count_(0)
    {
    }

    void push(const T& v)
    {
        items_[(head_ + count_) % N] = v;
        if (count_ < N)
        {
            ++count_;
        }
        else
        {
            head_ = (head_ + 1) % N;
        }
    }

    std::size_t size() const
    {
        return count_;
    }

    const T& at(std::size_t i) const
    {
        return items_[(head_ + i) % N];
    }

private:
    T items_[N];
    std::size_t head_;
    std::size_t count_;
};

class Histogram
{
public:
    explicit Histogram(int buckets)
        : buckets_(buckets), total_(0)
    {
        for (int i = 0; i < 64; ++i)
        {
            counts_[i] = 0;
        }
    }

    void add(const Sample& s)
    {
        int b = bucket_of(s.value);
        ++counts_[b];
        ++total_;
    }

    void add(const Histogram& other)
    {
        for (int i = 0; i < buckets_; ++i)
        {
            counts_[i] += other.counts_[i];
        }
        total_ += other.total_;
    }

    long total() const
    {
        return total_;
    }

private:
    int bucket_of(double v) const
    {
        if (v <= cfg.low)
        {
            return 0;
        }
        if (v >= cfg.high)
        {
            return buckets_ - 1;
        }
        double span = (cfg.high - cfg.low) / buckets_;
        return static_cast<int>((v - cfg.low) / span);
    }

    int buckets_;
    long total_;
    long counts_[64];
};

double smooth(const Ring<Sample, 8>& ring)
{
    double sum = 0.0;
    for (std::size_t i = 0; i < ring.size(); ++i)
    {
        sum += ring.at(i).value;
    }
    return ring.size() ? sum / ring.size() : 0.0;
}

} // namespace sensor

long summarize(const sensor::Sample* samples, std::size_t n)
{
    sensor::Ring<sensor::Sample, 8> ring;
    sensor::Histogram raw(sensor::cfg.bucket_count);
    sensor::Histogram smoothed(sensor::cfg.bucket_count);

    for (std::size_t i = 0; i < n; ++i)
    {
        ring.push(samples[i]);
        raw.add(samples[i]);
        double avg = sensor::smooth(ring);
        smoothed.add(avg);
    }

    raw.add(smoothed);
    return raw.total();
}
