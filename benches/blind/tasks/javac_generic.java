import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Tiny metrics store: series of samples keyed by name, with a few
 * aggregate helpers used by the dashboard exporter.
 */
interface Aggregator<T extends Number> {
    T combine(List<? extends T> values);
}

final class Sum implements Aggregator<Long> {
    @Override
    public Long combine(List<? extends Long> values) {
        long s = 0;
        for (Long v : values) {
            s += v;
        }
        return s;
    }
}

class Series<T extends Comparable<T>> {
    private final String name;
    private final List<T> samples = new ArrayList<>();

    Series(String name) {
        this.name = name;
    }

    String name() {
        return name;
    }

    void add(T sample) {
        samples.add(sample);
    }

    List<T> samples() {
        return Collections.unmodifiableList(samples);
    }

    T max() {
        return Collections.max(samples);
    }

    <R> List<R> map(Function<? super T, ? extends R> f) {
        List<R> out = new ArrayList<>(samples.size());
        for (T t : samples) {
            out.add(f.apply(t));
        }
        return out;
    }
}

class MetricStore {
    private final Map<String, Series<Integer>> series = new TreeMap<>();

    Series<Integer> series(String name) {
        return series.computeIfAbsent(name, Series::new);
    }

    void record(String name, int value) {
        series(name).add(value);
    }

    List<Number> normalised(String name, int scale) {
        Series<Integer> s = series(name);
        List<Integer> scaled = s.map(v -> v * scale);
        return scaled;
    }

    List<String> names() {
        List<String> out = new ArrayList<>(series.keySet());
        out.sort(Comparator.naturalOrder());
        return out;
    }
}

class Exporter {
    static String render(MetricStore store) {
        StringBuilder sb = new StringBuilder();
        for (String n : store.names()) {
            List<Number> values = store.normalised(n, 10);
            sb.append(n).append(' ').append(values).append('\n');
        }
        return sb.toString();
    }

    public static void main(String[] args) {
        MetricStore m = new MetricStore();
        m.record("latency", 12);
        m.record("latency", 40);
        m.record("errors", 1);
        System.out.print(render(m));
        System.out.println(new Sum().combine(List.of(1L, 2L, 3L)));
    }
}
