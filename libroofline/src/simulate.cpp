// The serving simulation. See simulate.hpp and docs/serving-model.md, section 14.
#include "roofline/simulate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <deque>
#include <map>
#include <queue>
#include <set>
#include <functional>
#include <limits>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/roofline.hpp"

#include "ascii.hpp"
#include "serving_iteration.hpp"
#include "serving_search.hpp"

namespace roofline::serving {

using namespace detail;

std::string_view to_string(Arrival a) noexcept {
    switch (a) {
        case Arrival::poisson: return "poisson";
        case Arrival::constant: return "constant";
        case Arrival::gamma: return "gamma";
    }
    return "?";
}

std::string_view to_string(Lengths l) noexcept {
    switch (l) {
        case Lengths::fixed: return "fixed";
        case Lengths::uniform: return "uniform";
        case Lengths::lognormal: return "lognormal";
    }
    return "?";
}

namespace {

/// The enumerator of `name` among `all`, by to_string's names.
template <typename E, std::size_t N> std::optional<E> parse_choice(std::string_view name, const E (&all)[N]) noexcept {
    const std::string_view n = ascii::trimmed(name);
    for (E e : all)
        if (ascii::iequals(n, to_string(e))) return e;
    return std::nullopt;
}

}  // namespace

std::optional<Arrival> parse_arrival(std::string_view name) noexcept {
    constexpr Arrival all[] = {Arrival::poisson, Arrival::constant, Arrival::gamma};
    return parse_choice(name, all);
}

std::optional<Lengths> parse_lengths(std::string_view name) noexcept {
    constexpr Lengths all[] = {Lengths::fixed, Lengths::uniform, Lengths::lognormal};
    return parse_choice(name, all);
}

namespace {

// ---- Random numbers: xoshiro256** seeded by splitmix64, and the distributions from it (the same numbers on every
// platform: std::*_distribution is not specified to be). -------------------------------------------------------

class Random {
public:
    explicit Random(std::uint64_t seed) {
        for (auto& s : s_) {  // splitmix64
            seed += 0x9E3779B97F4A7C15ull;
            std::uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            s = z ^ (z >> 31);
        }
    }
    /// Uniform in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// Uniform in (0, 1].
    double open_uniform() { return 1 - uniform(); }
    double exponential(double mean) { return -mean * std::log(open_uniform()); }
    double normal() {  // Box-Muller, one of the pair
        const double r = std::sqrt(-2 * std::log(open_uniform())), a = 2 * 3.14159265358979323846 * uniform();
        return r * std::cos(a);
    }
    /// Gamma of shape k and scale 1 (Marsaglia and Tsang, 2000; k < 1 through k + 1 and u^(1/k)).
    double gamma(double k) {
        if (k < 1) return gamma(k + 1) * std::pow(open_uniform(), 1 / k);
        const double d = k - 1.0 / 3, c = 1 / std::sqrt(9 * d);
        for (;;) {
            double x, v;
            do {
                x = normal();
                v = 1 + c * x;
            } while (v <= 0);
            v = v * v * v;
            const double u = open_uniform();
            if (u < 1 - 0.0331 * x * x * x * x || std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v))) return d * v;
        }
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t next() {
        const std::uint64_t result = rotl(s_[1] * 5, 7) * 9, t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }
    std::uint64_t s_[4]{};
};

/// One length about its mean, a whole number >= least.
double length_of(Random& r, Lengths kind, double mean, double spread, double least) {
    double x = mean;
    switch (kind) {
        case Lengths::fixed: break;
        case Lengths::uniform: x = mean * (1 + spread * (2 * r.uniform() - 1)); break;
        case Lengths::lognormal: {
            const double s2 = std::log1p(spread * spread);
            x = std::exp(std::log(mean) - s2 / 2 + std::sqrt(s2) * r.normal());
            break;
        }
    }
    return std::max(least, std::round(x));
}

// ---- The requests and the engine. ------------------------------------------------------------------------------

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

struct Request {
    double arrival_s = 0;
    double prompt = 0, output = 0;  ///< tokens (a later turn's prompt holds the conversation so far)
    int group = 0;                  ///< the attention group it runs in (a conversation's turns: the same one)
    std::size_t conversation = 0;   ///< its conversation (each request its own without turns)
    std::size_t next = kNone;       ///< the conversation's next turn
    double think_s = 0;             ///< the user's time before that next turn arrives
    bool shared = false;            ///< its prompt starts with the shared prefix
    // Progress.
    double target = 0;     ///< tokens to prefill before its next token: the prompt (and what it generated, recomputed)
    double ctx = 0;        ///< tokens in its KV cache
    double generated = 0;  ///< output tokens so far
    double first_s = -1, last_s = 0, done_s = -1;
    bool running = false;
    bool admitted = false;     ///< admitted once (its cache hits counted)
    bool uses_prefix = false;  ///< holds a reference on its group's cached shared prefix (its first tokens)
    bool prefilling() const { return ctx < target; }
};

/// The components of a per-context quantity (one number, or a Work's FLOPs and bytes).
inline std::array<double, 2> parts(double v) { return {v, 0}; }
inline std::array<double, 2> parts(const Work& w) { return {w.flops, w.bytes}; }
template <typename T> T of_parts(const std::array<double, 2>& p) {
    if constexpr (std::is_same_v<T, double>) return p[0];
    else return T{p[0], p[1]};
}

/// A quantity of one sequence as a function of its context (the operator model's), at every whole context of a run,
/// 1 ... `largest`. Where it is a polynomial of `degree` (1: a decode's attention or a cache without windows; 2: a
/// causal prefill's attention) over that range, checked against the function itself at two more contexts to a part in
/// 10^9, the polynomial stands for it (a window, a top-k or a chunk breaks it: then each context is computed once,
/// when first asked for).
template <typename T> class PerContext {
public:
    template <typename F> PerContext(F&& f, int degree, double largest) : f_(std::forward<F>(f)) {
        if (largest < 64) return;
        degree_ = degree;
        const std::size_t n = static_cast<std::size_t>(degree) + 1;
        for (std::size_t k = 0; k < n; ++k) {
            x_[k] = k == 0 ? 1 : std::floor(largest * static_cast<double>(k) / static_cast<double>(degree));
            y_[k] = parts(f_(x_[k]));
        }
        fit();
        for (double probe : {std::floor(largest * 0.3) + 1, std::floor(largest * 0.77) + 1}) {
            const auto want = parts(f_(probe)), got = parts(polynomial(probe));
            for (std::size_t c = 0; c < 2; ++c)
                if (!(std::abs(got[c] - want[c]) <= 1e-9 * std::max({std::abs(want[c]), std::abs(y_[0][c]),
                                                                       std::abs(y_[degree][c])})))
                    degree_ = 0;
        }
    }
    T at(double ctx) {
        if (degree_ > 0) [[likely]]
            return of_parts<T>({c_[0][0] + ctx * (c_[1][0] + ctx * c_[2][0]), c_[0][1] + ctx * (c_[1][1] + ctx * c_[2][1])});
        return computed(ctx);
    }
    /// at(ctx + 1) - at(ctx) of the first component, ctx >= 1 (a sequence's next token): one expression where a
    /// polynomial stands for it.
    double growth(double ctx) {
        if (degree_ > 0) [[likely]]
            return c_[1][0] + (2 * ctx + 1) * c_[2][0];
        return parts(computed(ctx + 1))[0] - parts(computed(ctx))[0];
    }

private:
    [[gnu::noinline]] T computed(double ctx) {
        const auto i = static_cast<std::size_t>(ctx);
        if (i >= known_.size()) {
            known_.resize(std::max(i + 1, 2 * known_.size()), false);
            values_.resize(known_.size());
        }
        if (!known_[i]) {
            values_[i] = f_(ctx);
            known_[i] = true;
        }
        return values_[i];
    }

    /// The coefficients c0 + c1 x + c2 x^2 of each component through the sampled points (Newton's divided differences).
    void fit() {
        for (std::size_t c = 0; c < 2; ++c) {
            const double d01 = (y_[1][c] - y_[0][c]) / (x_[1] - x_[0]);
            double d012 = 0;
            if (degree_ == 2) d012 = ((y_[2][c] - y_[1][c]) / (x_[2] - x_[1]) - d01) / (x_[2] - x_[0]);
            // y0 + d01 (x - x0) + d012 (x - x0)(x - x1)
            c_[2][c] = d012;
            c_[1][c] = d01 - d012 * (x_[0] + x_[1]);
            c_[0][c] = y_[0][c] - d01 * x_[0] + d012 * x_[0] * x_[1];
        }
    }
    T polynomial(double x) const {
        return of_parts<T>({c_[0][0] + x * (c_[1][0] + x * c_[2][0]), c_[0][1] + x * (c_[1][1] + x * c_[2][1])});
    }

    std::function<T(double)> f_;
    int degree_ = 0;  ///< 0: computed context by context
    std::array<double, 3> x_{};
    std::array<std::array<double, 2>, 3> y_{};
    std::array<std::array<double, 2>, 3> c_{};  ///< c_[power][component]
    std::vector<bool> known_;
    std::vector<T> values_;
};

/// What an iteration runs in one attention group: its tokens, sequences and attention work.
struct GroupLoad {
    double tokens = 0, sequences = 0;
    Work attention;
};

/// A scheduled piece of work: a request and its tokens this iteration.
struct Slot {
    std::size_t request;
    double tokens;
};

Percentiles percentiles(std::vector<std::pair<double, double>> weighted, double percentile) {
    Percentiles p;
    if (weighted.empty()) return p;
    std::sort(weighted.begin(), weighted.end());
    double total = 0, sum = 0;
    for (const auto& [v, n] : weighted) {
        total += n;
        sum += v * n;
    }
    p.mean = sum / total;
    // Linear interpolation between order statistics (numpy's default): rank q (n - 1), 0-based.
    const auto at = [&](double q) {
        const double rank = q * (total - 1);
        double below = 0;  // order statistics before this run of equal values
        for (std::size_t i = 0; i < weighted.size(); ++i) {
            const double end = below + weighted[i].second;  // this value holds ranks below ... end - 1
            if (rank <= end - 1) return weighted[i].first;
            if (rank < end) return weighted[i].first + (rank - (end - 1)) * (weighted[i + 1].first - weighted[i].first);
            below = end;
        }
        return weighted.back().first;
    };
    p.p50 = at(0.5);
    p.p90 = at(0.9);
    p.p99 = at(0.99);
    p.at = percentile > 0 ? at(percentile / 100) : p.mean;
    return p;
}

Percentiles percentiles(const std::vector<double>& values, double percentile) {
    std::vector<std::pair<double, double>> w;
    w.reserve(values.size());
    for (double v : values) w.emplace_back(v, 1);
    return percentiles(std::move(w), percentile);
}

/// What an iteration costs beside its token steps, in token steps (SimulationOptions::max_steps).
constexpr double kStepsPerIteration = 10;

[[noreturn]] void too_long(double max_steps) {
    fail(Status::invalid_argument, "requests",
         fmt::format("the simulation would take more than {:.3g} token steps (each sequence's token or prefill chunk in "
                     "an iteration), more than a formula should compute: simulate fewer requests or shorter answers",
                     max_steps));
}

void check_simulation(double rps, const Workload& w, const SimulationOptions& o) {
    if (o.arrival_times_s.empty()) require_positive("rps", rps);
    require_whole("requests", o.requests, 1);
    if (o.requests > defaults::simulate_requests_max)
        fail(Status::invalid_argument, "requests",
             fmt::format("must be at most {} (got {})", defaults::simulate_requests_max, o.requests));
    check(w);
    if (o.arrival == Arrival::gamma) require_positive("cv", o.cv);
    require_non_negative("spread", o.spread);
    if (o.lengths == Lengths::uniform && !(o.spread < 1))
        fail(Status::invalid_argument, "spread",
             fmt::format("must be below 1 for uniform lengths (mean x (1 +- spread)) (got {})", o.spread));
    require_fraction("mem_util", o.mem_util);
    require_non_negative("ttft_ms", o.targets.ttft_ms);
    require_non_negative("tpot_ms", o.targets.tpot_ms);
    require_non_negative("prefix_tokens", o.prefix_tokens);
    if (o.prefix_tokens != std::floor(o.prefix_tokens))
        fail(Status::invalid_argument, "prefix_tokens", fmt::format("must be a whole number (got {})", o.prefix_tokens));
    if (!(o.prefix_share >= 0 && o.prefix_share <= 1))
        fail(Status::invalid_argument, "prefix_share", fmt::format("must be from 0 to 1 (got {})", o.prefix_share));
    require_whole("turns", o.turns, 1);
    require_non_negative("think_s", o.think_s);
    require_non_negative("host_kv_gb", o.host_kv_gb);
    require_non_negative("host_tbs", o.host_tbs);
    if (!(o.concurrency == 0 || (o.concurrency >= 1 && o.concurrency == std::floor(o.concurrency))))
        fail(Status::invalid_argument, "concurrency",
             fmt::format("must be 0 (no limit) or a whole number >= 1 (got {})", o.concurrency));
    require_positive("max_steps", o.max_steps);
    for (std::size_t i = 0; i < o.length_rows.size(); ++i) {
        const auto& [prompt, output] = o.length_rows[i];
        if (!(prompt >= 1 && prompt == std::floor(prompt) && output >= 2 && output == std::floor(output) &&
              std::isfinite(prompt + output)))
            fail(Status::invalid_argument, "length_rows",
                 fmt::format("row {}: a prompt must be a whole number of tokens >= 1 and an output one >= 2 (got {} "
                             "and {})", i + 1, prompt, output));
    }
    // Each request decodes its output less one token, a step each: beyond the budget, no need to start.
    const double requests = o.arrival_times_s.empty() ? o.requests : static_cast<double>(o.arrival_times_s.size()) * o.turns;
    double output = w.output_tokens;
    if (!o.length_rows.empty()) {
        output = 0;
        for (const auto& row : o.length_rows) output += row[1];
        output /= static_cast<double>(o.length_rows.size());
    }
    if (requests * (output - 1) > o.max_steps) too_long(o.max_steps);
    check_percentile(o.percentile);
    for (std::size_t i = 0; i < o.arrival_times_s.size(); ++i)
        if (!(std::isfinite(o.arrival_times_s[i]) && o.arrival_times_s[i] >= 0) ||
            (i > 0 && o.arrival_times_s[i] < o.arrival_times_s[i - 1]))
            fail(Status::invalid_argument, "arrival_times_s",
                 fmt::format("must be finite seconds >= 0 in ascending order (row {}: {})", i + 1, o.arrival_times_s[i]));
}

/// The requests, in order of their conversation and turn: the first turns' arrival times (the later turns' come from
/// the answers before them), lengths and prefixes drawn from one seeded stream.
std::vector<Request> requests_of(double rps, const Workload& w, const SimulationOptions& o, int groups) {
    Random random(o.seed);
    const auto turns = static_cast<std::size_t>(o.turns);
    const auto n = o.arrival_times_s.empty() ? static_cast<std::size_t>(o.requests) : o.arrival_times_s.size() * turns;
    const double starts = rps / o.turns;  // conversations per second
    std::vector<Request> out(n);
    double t = 0;
    for (std::size_t c = 0, i = 0; i < n; ++c) {
        if (!o.arrival_times_s.empty()) {
            t = o.arrival_times_s[c];
        } else {
            switch (o.arrival) {
                case Arrival::poisson: t += random.exponential(1 / starts); break;
                case Arrival::constant: t = static_cast<double>(c) / starts; break;
                case Arrival::gamma: {
                    const double k = 1 / (o.cv * o.cv);  // shape; scale 1 / (k starts): mean 1 / starts
                    t += random.gamma(k) / (k * starts);
                    break;
                }
            }
        }
        bool shared = o.prefix_share > 0 && o.prefix_tokens > 0 && random.uniform() < o.prefix_share;
        double history = 0;
        for (std::size_t k = 0; k < turns && i < n; ++k, ++i) {
            Request& r = out[i];
            r.arrival_s = k == 0 ? t : kInf;  // a later turn's: when the answer before it is out
            r.conversation = c;
            if (o.length_rows.empty()) {
                r.prompt = history + length_of(random, o.lengths, w.prompt_tokens, o.spread, 1);
                r.output = length_of(random, o.lengths, w.output_tokens, o.spread, 2);
            } else {
                const auto& row = o.length_rows[i % o.length_rows.size()];
                r.prompt = history + row[0];
                r.output = row[1];
            }
            r.target = r.prompt;
            r.group = static_cast<int>(c % static_cast<std::size_t>(groups));  // round robin over the attention groups
            if (k == 0) shared = shared && r.prompt > o.prefix_tokens;  // a first prompt longer than the prefix
            r.shared = shared;
            r.think_s = o.think_s > 0 ? random.exponential(o.think_s) : 0;
            if (k + 1 < turns && i + 1 < n) r.next = i + 1;
            history = r.prompt + r.output;
        }
    }
    return out;
}

double longest_context(const std::vector<Request>& requests) {
    double longest = 1;
    for (const Request& r : requests) longest = std::max(longest, r.prompt + r.output - 1);
    return longest;
}

/// What a group's prefix cache holds apart from its running sequences: the shared prefix (one entry; referenced while
/// running sequences use it) and each conversation's history between its turns (handed to the next turn on a hit).
struct Cached {
    double tokens = 0, bytes = 0;
    double last_use = 0;
    int references = 0;
    bool present = false;
    bool on_host = false;  ///< offloaded to the host's memory (the second tier): it comes back over the host link
};

/// One attention group's scheduler (vLLM's, in the terms of docs/serving-model.md section 14): the running requests in
/// the order they were admitted, then the waiting ones first come, first served; and its KV memory: its sequences'
/// caches and its prefix cache.
struct Group {
    std::vector<std::size_t> running;
    std::deque<std::size_t> waiting;
    double used = 0;  ///< KV bytes held, sequences and prefix cache (per GPU, in the replica's terms)
    Cached prefix;    ///< the shared prefix
    std::map<std::size_t, Cached> histories;  ///< by conversation
    /// The entries no running sequence references, least recently used first: (last use, conversation; kNone for the
    /// shared prefix).
    std::set<std::pair<double, std::size_t>> evictable;
    /// The second tier: the entries offloaded to host memory, least recently used first, and their bytes.
    std::set<std::pair<double, std::size_t>> on_host;
    double host_used = 0;
    double load_s = 0;  ///< this iteration's transfers back from host memory, s
};

class Simulation {
public:
    Simulation(const Deployment& d, const Profile& p, double rps, const Workload& w, const SimulationOptions& o)
        : d_(d),
          profile_(p.for_vendor(d.gpu.vendor)),
          o_(o),
          model_(d, p, contexts(d.model, w), w.prompt_tokens),
          groups_(static_cast<int>(d.layout.dp_attention)),
          requests_(requests_of(rps, w, o, groups_)),
          longest_(longest_context(requests_)),
          kv_([this](double ctx) { return kv_bytes_per_sequence_per_gpu(d_, ctx); }, 1, longest_),
          decode_attention_([this](double ctx) { return attention_of(false, ctx); }, 1, longest_),
          prefill_attention_([this](double tokens) { return attention_of(true, tokens); }, 2, longest_) {
        // Each group holds its own sequences: in the replica's terms (bytes per GPU averaged over the groups), a
        // group's sequences may hold budget / groups.
        capacity_ = kv_budget_bytes(d, o.mem_util) / groups_;
        if (profile_.max_running_seqs > 0) seqs_cap_ = std::max(1.0, std::floor(profile_.max_running_seqs));
        if (profile_.max_iteration_tokens > 0) tokens_cap_ = std::max(1.0, std::floor(profile_.max_iteration_tokens));
        const double longest = longest_;
        if (held(longest) > capacity_)
            fail(Status::no_solution, "prompt_tokens",
                 fmt::format("a request of {} tokens (prompt and output) needs {:.3g} GB of KV cache per GPU; {:.3g} GB "
                             "are left beside the weights at mem_util {} (give more GPUs, a smaller KV format or "
                             "shorter requests)",
                             longest, held(longest) * groups_ / 1e9, capacity_ * groups_ / 1e9, o.mem_util));
        groups_state_.resize(static_cast<std::size_t>(groups_));
        prefix_ = o.prefix_tokens;
        host_capacity_ = o.host_kv_gb * 1e9 / groups_;
        host_tbs_ = o.host_tbs > 0 ? o.host_tbs : d.gpu.host_link_tbs;
        if (o.host_kv_gb > 0 && !(host_tbs_ > 0))
            fail(Status::invalid_argument, "host_tbs",
                 fmt::format("the catalog records no host link for '{}' (no host memory apart from its own, or not "
                             "published): give the bandwidth to host memory, TB/s per direction", d.gpu.id));
        for (std::size_t i = 0; i < requests_.size(); ++i)
            if (std::isfinite(requests_[i].arrival_s)) pending_.push({requests_[i].arrival_s, i});
    }

    /// Ends the run as soon as its percentile of TTFT or of TPOT is sure to miss its target (missed() then): a search
    /// needs no more of a rate that fails (nor the inter-token latencies: itl_ms is left empty). The percentile interpolates between the order statistics at rank q (n - 1):
    /// once n - floor(q (n - 1)) requests are above a target, the one below that rank is too.
    void stop_when_missed(const Targets& t, double percentile) {
        stop_ = t;
        const double n = static_cast<double>(requests_.size());
        stop_misses_ = n - std::floor(percentile / 100 * (n - 1));
    }
    /// Whether the run ended early: a target sure to be missed (stop_when_missed).
    bool missed() const noexcept { return missed_; }

    SimulationResult run() {
        const std::size_t n = requests_.size();
        double ttft_misses = 0, tpot_misses = 0;
        std::size_t done = 0;
        double& t = now_;
        double busy_s = 0, decode_seconds = 0;
        SimulationResult out;
        std::vector<std::pair<double, double>> itl;  // (gap ms, tokens with it)
        std::vector<std::vector<Slot>> slots(static_cast<std::size_t>(groups_));
        while (done < n) {
            while (!pending_.empty() && pending_.top().first <= t) {
                const std::size_t i = pending_.top().second;
                pending_.pop();
                send(i);
            }
            bool any = false;
            double queued = 0;  // left waiting by this iteration's schedule
            for (int g = 0; g < groups_; ++g) {
                Group& group = groups_state_[static_cast<std::size_t>(g)];
                schedule(group, slots[static_cast<std::size_t>(g)]);
                any = any || !slots[static_cast<std::size_t>(g)].empty();
                queued += static_cast<double>(group.waiting.size());
            }
            out.max_queue = std::max(out.max_queue, queued);
            if (!any) {  // idle: nothing runs until the next arrival
                if (pending_.empty())
                    throw Error::of_call(Status::internal, "", "", "the simulation has requests left and none to run");
                t = std::max(t, pending_.top().first);
                continue;
            }
            // The iteration: every group's tokens through the shared operators; the busiest group's through its own.
            double tokens = 0, logits = 0, decoding = 0;
            GroupLoad busiest;
            for (int g = 0; g < groups_; ++g) {
                GroupLoad load;
                for (const Slot& s : slots[static_cast<std::size_t>(g)]) {
                    const Request& r = requests_[s.request];
                    load.tokens += s.tokens;
                    load.sequences += 1;
                    if (r.prefilling()) {
                        const Work to = prefill_attention_.at(r.ctx + s.tokens);
                        const Work from = r.ctx > 0 ? prefill_attention_.at(r.ctx) : Work{};
                        load.attention.flops += to.flops - from.flops;
                        load.attention.bytes += to.bytes - from.bytes;
                        if (r.ctx + s.tokens >= r.target) logits += 1;
                    } else {
                        const Work a = decode_attention_.at(r.ctx);
                        load.attention.flops += a.flops;
                        load.attention.bytes += a.bytes;
                        logits += 1;
                        decoding += 1;
                    }
                }
                tokens += load.tokens;
                if (load.tokens > busiest.tokens) busiest = load;
            }
            // Offloaded caches coming back: the groups load at once, the iteration waits for the slowest.
            double load_s = 0;
            for (Group& group : groups_state_) {
                load_s = std::max(load_s, group.load_s);
                group.load_s = 0;
            }
            const double gs = groups_;
            const double ms = model_.ms_of(tokens, gs * busiest.tokens, logits, gs * busiest.sequences,
                                           {gs * busiest.attention.flops, gs * busiest.attention.bytes});
            const double dt = ms / 1000 + load_s;
            const double before = t;
            t += dt;
            busy_s += dt;
            decode_seconds += decoding * dt;
            out.iterations += 1;
            for (const auto& g : slots) out.steps += static_cast<double>(g.size());
            // An iteration's own cost (its operators timed, its groups scheduled) counts as ten steps.
            if (out.steps + kStepsPerIteration * out.iterations > o_.max_steps) too_long(o_.max_steps);
            // Progress: caches grow, prefills end in a token, decodes give one.
            double steady = 0;  // tokens whose previous one came at the end of the previous iteration
            for (int g = 0; g < groups_; ++g) {
                Group& group = groups_state_[static_cast<std::size_t>(g)];
                for (const Slot& s : slots[static_cast<std::size_t>(g)]) {
                    Request& r = requests_[s.request];
                    const bool prefill = r.prefilling();
                    r.ctx += s.tokens;
                    // The first to compute the shared prefix leaves it in the prefix cache.
                    if (r.shared && !r.uses_prefix && !group.prefix.present && r.ctx >= prefix_) {
                        group.prefix = {prefix_, held(prefix_), t, 1, true};
                        r.uses_prefix = true;
                    }
                    if (prefill && r.ctx < r.target) continue;  // a chunk, more to come
                    r.generated += 1;
                    if (r.first_s < 0) {
                        r.first_s = t;
                        if (stop_misses_ > 0 && (r.first_s - r.arrival_s) * 1000 > stop_.ttft_ms &&
                            ++ttft_misses >= stop_misses_)
                            missed_ = true;
                    } else if (r.last_s == before) {
                        steady += 1;
                    } else if (!stop_misses_) {
                        itl.emplace_back((t - r.last_s) * 1000, 1);
                    }
                    r.last_s = t;
                    r.target = std::max(r.target, r.ctx);
                    if (r.generated >= r.output) {
                        r.done_s = t;
                        ++done;
                        finish(group, s.request);
                        if (stop_misses_ > 0 && (r.done_s - r.first_s) * 1000 / (r.output - 1) > stop_.tpot_ms &&
                            ++tpot_misses >= stop_misses_)
                            missed_ = true;
                    }
                }
                std::erase_if(group.running, [&](std::size_t i) { return !requests_[i].running; });
            }
            if (steady > 0 && !stop_misses_) itl.emplace_back(dt * 1000, steady);
            if (missed_) return out;  // its steps and iterations counted; no distributions
        }
        // The distributions.
        std::vector<double> ttft, tpot, e2e;
        double first = kInf, last = 0, output = 0, good = 0;
        for (const Request& r : requests_) {
            ttft.push_back((r.first_s - r.arrival_s) * 1000);
            e2e.push_back((r.done_s - r.arrival_s) * 1000);
            tpot.push_back((r.done_s - r.first_s) * 1000 / (r.output - 1));
            first = std::min(first, r.arrival_s);
            last = std::max(last, r.done_s);
            output += r.output;
            if ((o_.targets.ttft_ms <= 0 || ttft.back() <= o_.targets.ttft_ms) &&
                (o_.targets.tpot_ms <= 0 || tpot.back() <= o_.targets.tpot_ms))
                good += 1;
        }
        out.ttft_ms = percentiles(ttft, o_.percentile);
        out.tpot_ms = percentiles(tpot, o_.percentile);
        out.e2e_ms = percentiles(e2e, o_.percentile);
        out.itl_ms = percentiles(std::move(itl), o_.percentile);
        out.requests = static_cast<double>(n);
        out.duration_s = last - first;
        out.throughput_tok_s = out.duration_s > 0 ? output / out.duration_s : 0;
        out.goodput_rps = out.duration_s > 0 ? good / out.duration_s : 0;
        out.mean_batch = busy_s > 0 ? decode_seconds / busy_s : 0;
        out.preemptions = preemptions_;
        out.prefix_hit_rate = prompt_tokens_ > 0 ? hit_tokens_ / prompt_tokens_ : 0;
        out.offloaded_gb = offloaded_ / 1e9;
        return out;
    }

private:
    /// KV bytes a sequence of `ctx` cached tokens holds (none before its first token is cached).
    double held(double ctx) { return ctx > 0 ? kv_.at(ctx) : 0; }

    /// The attention of one sequence decoding at `ctx` cached tokens, or of one prompt's prefill of `tokens` tokens
    /// (causal), in the replica's terms, as the serving model's iteration takes them (serving_iteration.hpp): its
    /// FLOPs as timed_flops() counts them.
    Work attention_of(bool prefill, double tokens) {
        const double u = d_.layout.pp;
        if (prefill) prefill_operators(d_, u, tokens, ops_);
        else decode_operators(d_, u, tokens, ops_);
        const Operator& a = of_kind(ops_, OperatorKind::attention);
        return {timed_flops(a, d_.gpu) / u, timed_bytes(a, profile_) / u};
    }

    /// KV bytes a running request holds apart from the shared prefix it references.
    double own(const Request& r, double ctx) { return held(ctx) - (r.uses_prefix ? held(prefix_) : 0); }

    void release_prefix(Group& group, Request& r) {
        if (!r.uses_prefix) return;
        r.uses_prefix = false;
        group.prefix.last_use = now_;
        if (--group.prefix.references == 0) group.evictable.insert({now_, kNone});
    }

    /// What a request leaving the GPUs (finish, preempt) holds: its own KV bytes, apart from the shared prefix it
    /// references (the reference dropped here), and whether they may stay as its conversation's history: not where it
    /// starts with the shared prefix but computed its own copy of it beside the cached one.
    struct Leaving {
        double bytes;
        bool keepable;
    };
    Leaving leave(Group& group, Request& r) {
        const Leaving out{own(r, r.ctx), !(r.shared && !r.uses_prefix)};
        release_prefix(group, r);
        return out;
    }

    /// A request done: its cache freed, or kept for its conversation's next turn (evictable until that turn comes).
    /// A request leaves the client: to its group's queue, or to wait at the client while `concurrency` are in flight.
    void send(std::size_t i) {
        if (o_.concurrency > 0 && in_flight_ >= o_.concurrency) {
            held_.push_back(i);
            return;
        }
        ++in_flight_;
        groups_state_[static_cast<std::size_t>(requests_[i].group)].waiting.push_back(i);
    }

    void finish(Group& group, std::size_t i) {
        Request& r = requests_[i];
        r.running = false;
        --in_flight_;
        if (!held_.empty()) {  // the client sends the first request it held back: its time counts from now
            const std::size_t next = held_.front();
            held_.pop_front();
            requests_[next].arrival_s = now_;
            send(next);
        }
        const Leaving left = leave(group, r);
        if (r.next != kNone) {
            Request& next = requests_[r.next];
            next.arrival_s = now_ + r.think_s;
            pending_.push({next.arrival_s, r.next});
        }
        // A conversation's history stays cached for its next turn: its tokens after the shared prefix where it uses
        // one (a hit needs the prefix too). One computed beside the cached prefix, with its own copy, is not kept.
        if (r.next == kNone || !left.keepable) {
            group.used -= left.bytes;
            return;
        }
        keep_history(group, r, left.bytes);
    }

    /// Keeps a request's cache (`bytes`, already counted in group.used) as its conversation's history, evictable.
    void keep_history(Group& group, const Request& r, double bytes) {
        group.histories[r.conversation] = {r.ctx, bytes, now_, 0, true};
        group.evictable.insert({now_, r.conversation});
    }

    Cached& entry(Group& group, std::size_t key) { return key == kNone ? group.prefix : group.histories[key]; }

    /// Forgets a cached entry (already out of the sets that list it).
    void drop(Group& group, std::size_t key) {
        if (key == kNone) group.prefix = {};
        else group.histories.erase(key);
    }

    /// Frees cached entries no running sequence references, least recently used first, but the ones about to be hit
    /// (a conversation's history `keep_history`, the shared prefix with `keep_prefix`), until `need` more bytes fit:
    /// each goes to host memory where it has room (its own least recently used entries dropped for it), else is
    /// dropped. Whether they fit.
    bool make_room(Group& group, double need, std::size_t keep_history = kNone - 1, bool keep_prefix = false) {
        const auto kept = [&](std::size_t key) { return (key == kNone && keep_prefix) || key == keep_history; };
        for (auto it = group.evictable.begin(); group.used + need > capacity_ && it != group.evictable.end();) {
            const std::size_t key = it->second;
            if (kept(key)) {
                ++it;
                continue;
            }
            Cached& e = entry(group, key);
            group.used -= e.bytes;
            it = group.evictable.erase(it);
            if (!(e.bytes <= host_capacity_)) {
                drop(group, key);
                continue;
            }
            for (auto h = group.on_host.begin(); group.host_used + e.bytes > host_capacity_ && h != group.on_host.end();) {
                if (kept(h->second)) {
                    ++h;
                    continue;
                }
                group.host_used -= entry(group, h->second).bytes;
                drop(group, h->second);
                h = group.on_host.erase(h);
            }
            if (group.host_used + e.bytes > host_capacity_) {
                drop(group, key);
                continue;
            }
            e.on_host = true;
            group.host_used += e.bytes;
            group.on_host.insert({e.last_use, key});
            offloaded_ += e.bytes;
        }
        return group.used + need <= capacity_;
    }

    /// Brings an offloaded entry back to the GPUs' memory (room made for it): the group's GPUs wait for the transfer,
    /// each its share of the bytes over its host link.
    void reload(Group& group, std::size_t key) {
        Cached& e = entry(group, key);
        if (!e.on_host) return;
        group.on_host.erase({e.last_use, key});
        group.host_used -= e.bytes;
        group.used += e.bytes;
        e.on_host = false;
        group.load_s += groups_ * e.bytes / (host_tbs_ * 1e12);  // the replica's terms: a group's GPUs hold g times
    }

    /// Stops a running request and puts it first in line, to prefill its prompt and what it generated again. What it
    /// computed stays in the prefix cache, evictable, as the engines keep it by default (vLLM's automatic prefix
    /// caching, SGLang's radix cache, TensorRT-LLM's block reuse): admitted again before it is evicted, the request
    /// resumes from there (docs/serving-model.md, section 14). The caller makes room (make_room) where it needs it.
    void preempt(Group& group, std::size_t i) {
        Request& r = requests_[i];
        const Leaving left = leave(group, r);
        // As a conversation's history (finish()): its tokens after the shared prefix where it uses one; where an
        // entry of its conversation is cached already (one it did not hit), or a prefix it computed beside the cached
        // one, it is freed.
        if (r.ctx > 0 && left.keepable && group.histories.count(r.conversation) == 0)
            keep_history(group, r, left.bytes);
        else
            group.used -= left.bytes;
        r.ctx = 0;
        r.target = r.prompt + r.generated;
        r.running = false;
        group.running.erase(std::find(group.running.begin(), group.running.end(), i));
        group.waiting.push_front(i);
        preemptions_ += 1;
    }

    /// Admits a waiting request if its next chunk fits (after what its prefix cache holds for it: the shared prefix,
    /// its conversation's history): its hits taken, the chunk's memory held. Whether it was admitted.
    bool admit(Group& group, std::size_t i, double budget, std::vector<Slot>& slots) {
        Request& r = requests_[i];
        const bool prefix_hit = r.ctx == 0 && r.shared && group.prefix.present;
        const auto history = group.histories.find(r.conversation);
        const bool history_hit = r.ctx == 0 && history != group.histories.end() && (!r.shared || prefix_hit);
        // A history that holds all the request's tokens (one preempted after its prefill) leaves its last one to
        // compute again, as vLLM does: the next token needs that step; the rest of the entry is freed.
        const double start = history_hit ? std::min(history->second.tokens, r.target - 1) : prefix_hit ? prefix_ : r.ctx;
        const double tokens = std::min(r.target - start, budget);
        // The chunk's cache; the history's bytes, already held by the prefix cache, become the request's own; what
        // was offloaded to host memory comes back.
        const double need = held(start + tokens) - held(start);
        const double back = (prefix_hit && group.prefix.on_host ? group.prefix.bytes : 0) +
                            (history_hit && history->second.on_host ? history->second.bytes : 0);
        if (!make_room(group, need + back, history_hit ? r.conversation : kNone - 1, prefix_hit)) return false;
        if (prefix_hit) reload(group, kNone);
        if (history_hit) reload(group, r.conversation);
        if (prefix_hit) {
            if (group.prefix.references++ == 0) group.evictable.erase({group.prefix.last_use, kNone});
            group.prefix.last_use = now_;
            r.uses_prefix = true;
        }
        if (history_hit) {  // the history's bytes become the request's own
            group.used -= history->second.bytes - own(r, start);
            group.evictable.erase({history->second.last_use, r.conversation});
            group.histories.erase(history);
        }
        if (!r.admitted) {
            r.admitted = true;
            hit_tokens_ += start;
            prompt_tokens_ += r.prompt;
        }
        r.ctx = start;
        group.used += need;
        r.running = true;
        group.running.push_back(i);
        slots.push_back({i, tokens});
        return true;
    }

    /// The iteration of one group: each running request in order (a token to decode or its next chunk), freeing the
    /// prefix cache and then preempting the last admitted while memory has no room; then waiting requests while the
    /// caps and the memory allow.
    void schedule(Group& group, std::vector<Slot>& slots) {
        slots.clear();
        double budget = tokens_cap_;
        for (std::size_t k = 0; k < group.running.size() && budget >= 1;) {
            const std::size_t i = group.running[k];
            Request& r = requests_[i];
            const double tokens = r.prefilling() ? std::min(r.target - r.ctx, budget) : 1;
            const double need = tokens == 1 && r.ctx >= 1 ? kv_.growth(r.ctx) : held(r.ctx + tokens) - held(r.ctx);
            if (group.used + need > capacity_ && !make_room(group, need))
                while (group.used + need > capacity_ && group.running.back() != i) {
                    preempt(group, group.running.back());
                    make_room(group, need);
                }
            if (group.used + need > capacity_) {  // not even alone with those before it: it waits
                preempt(group, i);
                break;
            }
            group.used += need;
            budget -= tokens;
            slots.push_back({i, tokens});
            ++k;
        }
        while (!group.waiting.empty() && budget >= 1 && static_cast<double>(group.running.size()) < seqs_cap_) {
            if (!admit(group, group.waiting.front(), budget, slots)) break;
            budget -= slots.back().tokens;
            group.waiting.pop_front();
        }
    }

    const Deployment& d_;
    const Profile& profile_;
    const SimulationOptions& o_;
    IterationModel model_;
    int groups_;
    std::vector<Request> requests_;
    std::vector<Operator> ops_;  ///< before the PerContext members: their constructors use it
    double longest_;  ///< the longest context of the run: a request's prompt and output less its last token
    PerContext<double> kv_;
    PerContext<Work> decode_attention_, prefill_attention_;
    std::vector<Group> groups_state_;
    double capacity_ = 0, seqs_cap_ = kInf, tokens_cap_ = kInf, preemptions_ = 0;
    double prefix_ = 0;  ///< tokens of the shared prefix
    double host_capacity_ = 0;  ///< host memory for offloaded KV per group (the replica's terms), bytes
    double host_tbs_ = 0;       ///< each GPU's host link, TB/s per direction
    double offloaded_ = 0;      ///< bytes offloaded over the run (the replica's terms)
    double now_ = 0;     ///< the simulation's clock, s
    double hit_tokens_ = 0, prompt_tokens_ = 0;
    double in_flight_ = 0;           ///< requests sent and not finished
    std::deque<std::size_t> held_;   ///< requests the client holds back (SimulationOptions::concurrency), oldest first
    Targets stop_{0, 0};      ///< stop_when_missed's targets
    double stop_misses_ = 0;  ///< misses of either target that end the run (0: run to the end)
    bool missed_ = false;
    /// Arrivals to come: (time, request), earliest first.
    std::priority_queue<std::pair<double, std::size_t>, std::vector<std::pair<double, std::size_t>>, std::greater<>>
        pending_;
};

}  // namespace

SimulationResult simulate(const Deployment& d, const Profile& profile, double rps, const Workload& w,
                          const SimulationOptions& o) {
    check_simulation(rps, w, o);
    return Simulation(d, profile, rps, w, o).run();
}

PercentileCapacity replica_rps_at(const Deployment& d, const Profile& profile, const Workload& w, const Targets& t,
                                  const SimulationOptions& o) {
    check(t);
    check_simulation(1, w, o);
    // bound: no queue, no tail; the closed form's answer (what no engine beats).
    const ReplicaState mean = replica_rps(d, profile, w, t, o.mem_util);
    PercentileCapacity out;
    out.state = mean;
    if (!simulates(o.percentile, profile)) return out;
    // The most a replica completes at its largest batch bounds every rate that meets the targets at a percentile.
    const double most = replica_state(d, profile, w, max_batch(d, profile, w, o.mem_util), o.mem_util).rps;
    // The search's budget: twice one simulation's, for all its runs.
    double left = 2 * o.max_steps;
    const auto meets = [&](double rps, SimulationResult& r, bool early = true) {
        SimulationOptions run = o;
        run.max_steps = left;
        bool missed = false;
        try {
            Simulation sim(d, profile, rps, w, run);
            if (early) sim.stop_when_missed(t, o.percentile);
            r = sim.run();
            missed = sim.missed();
        } catch (const Error& e) {
            if (e.status() != Status::invalid_argument || e.argument() != "requests") throw;
            fail(Status::invalid_argument, "requests",
                 fmt::format("the search for the rate at p{} would take more than {:.3g} token steps of simulation, "
                             "more than a formula should compute: simulate fewer requests or shorter answers",
                             o.percentile, 2 * o.max_steps));
        }
        left -= r.steps + kStepsPerIteration * r.iterations;
        out.work += r.steps + kStepsPerIteration * r.iterations;
        ++out.simulations;
        return !missed && r.ttft_ms.at <= t.ttft_ms && r.tpot_ms.at <= t.tpot_ms;
    };
    // Bisection on the rate between nothing and what the replica completes at its largest batch, to 1% of the
    // bracket, the first probe at the closed form's rate (a tail target is met below it, a median one near it). The
    // same seed at every rate: a deterministic answer.
    SimulationResult at_lo, probe;
    double lo = 0, hi = most;
    bool found = false;
    for (int k = 0; k < 16 && hi - lo > 0.01 * hi; ++k) {
        const double mid = k == 0 && mean.rps < most ? mean.rps : (lo + hi) / 2;
        if (meets(mid, probe)) {
            lo = mid;
            at_lo = probe;
            found = true;
        } else {
            hi = mid;
        }
    }
    if (!found) {  // not even 1% of the bracket: a trickle, or nothing
        const double trickle = hi / 64;
        if (!meets(trickle, at_lo, false))  // to the end: its percentiles are the error's
            fail(Status::no_solution, at_lo.ttft_ms.at > t.ttft_ms ? "ttft_ms" : "tpot_ms",
                 fmt::format("not even {:.3g} requests/s meet the targets at p{}: TTFT {:.4g} ms, TPOT {:.4g} ms",
                             trickle, o.percentile, at_lo.ttft_ms.at, at_lo.tpot_ms.at));
        lo = trickle;
    }
    out.state.rps = lo;
    out.state.output_tokens_per_s = lo * w.output_tokens;
    out.state.batch = at_lo.mean_batch;
    out.state.ttft_ms = at_lo.ttft_ms.at;
    out.state.tpot_ms = at_lo.tpot_ms.at;
    out.state.e2e_ms = at_lo.e2e_ms.at;
    return out;
}

double slo_batch_at(const Deployment& d, const Profile& profile, double ctx, double tpot_ms, double prompt_tokens,
                    const SimulationOptions& o) {
    check_percentile(o.percentile);
    if (!simulates(o.percentile, profile)) return slo_batch(d, profile, ctx, tpot_ms, o.mem_util);
    require_positive("tpot_ms", tpot_ms);
    require_whole("prompt_tokens", prompt_tokens, 1);
    if (!(ctx - prompt_tokens >= 2))
        fail(Status::invalid_argument, "prompt_tokens",
             fmt::format("must leave an answer of at least 2 tokens before ctx = {} (got {}): with a percentile the "
                         "batch is a closed loop of requests of prompt_tokens tokens whose answers end at ctx",
                         ctx, prompt_tokens));
    const Workload w{prompt_tokens, ctx - prompt_tokens};
    check_simulation(1, w, o);
    const double most = max_batch(d, profile, w, o.mem_util);
    if (!(most >= 1))
        fail(Status::no_solution, "ctx", fmt::format("not one sequence of {} tokens fits beside the weights", ctx));
    double left = 2 * o.max_steps;  // the search's budget: twice one simulation's
    SimulationResult r;
    const auto meets = [&](double batch, bool early = true) {
        SimulationOptions run = o;
        run.max_steps = left;
        run.concurrency = batch;
        // The users' first requests spread over one request's latency at that batch (the closed form's), the rest
        // held at the client until a user's answer ends: a steady loop, not waves of prompts sent together.
        double spread_s = 0;
        try {
            spread_s = e2e_ms(d, profile, w, batch, o.mem_util) / 1000;
        } catch (const Error& e) {
            if (e.status() != Status::no_solution) throw;
        }
        const auto n = static_cast<std::size_t>(std::clamp(20 * batch, 200.0, 2000.0));
        run.arrival_times_s.assign(n, spread_s * (batch - 1) / batch);
        for (std::size_t k = 0; k + 1 < static_cast<std::size_t>(batch) && k < n; ++k)
            run.arrival_times_s[k] = spread_s * static_cast<double>(k) / batch;
        Simulation sim(d, profile, 1, w, run);
        if (early) sim.stop_when_missed({kInf, tpot_ms}, o.percentile);
        r = sim.run();
        left -= r.steps + kStepsPerIteration * r.iterations;
        return !sim.missed() && r.tpot_ms.at <= tpot_ms;
    };
    if (!meets(1, false))  // to the end: its percentile is the error's
        fail(Status::no_solution, "tpot_ms",
             fmt::format("no batch meets tpot_ms = {} at p{}: one sequence alone takes {:.4g} ms per token", tpot_ms,
                         o.percentile, r.tpot_ms.at));
    double lo = 1, hi = std::floor(most) + 1;  // lo meets, hi does not (or is beyond what the replica holds)
    while (hi - lo > 1) {
        const double mid = std::floor((lo + hi) / 2);
        if (meets(mid)) lo = mid;
        else hi = mid;
    }
    return lo;
}

}  // namespace roofline::serving
