// The serving simulation (simulate.hpp) against hand computations: one request alone is one prefill and its decode
// steps, a stream below capacity has no queue, a saturated one grows its queue, Little's law holds, bursts raise the
// tail, a full KV memory preempts, the same seed gives the same numbers.
#include <catch2/catch.hpp>

#include <cmath>

#include "roofline/catalog.hpp"
#include "roofline/error.hpp"
#include "roofline/operators.hpp"
#include "roofline/serving.hpp"
#include "roofline/simulate.hpp"

#include <tuple>
#include <vector>

using namespace roofline;
using namespace roofline::serving;

namespace {

Deployment deploy(const char* model, const char* gpu, DType weights, double tp) {
    return {*find_model(model), *find_gpu(gpu), weights, DType::bf16, tp};
}

SimulationOptions with(double requests, Arrival arrival = Arrival::poisson) {
    SimulationOptions o;
    o.requests = requests;
    o.arrival = arrival;
    return o;
}

SimulationOptions with_turns(SimulationOptions o, double mem_util) {
    o.mem_util = mem_util;
    return o;
}

void ordered(const Percentiles& p) {
    CHECK(p.p50 <= p.p90);
    CHECK(p.p90 <= p.p99);
    CHECK(p.p50 > 0);
}

}  // namespace

TEST_CASE("one request alone: its prefill, then its decode steps at batch 1", "[simulate]") {
    const Deployment d = deploy("llama-3.1-8b", "h100-sxm", DType::bf16, 1);
    const Workload w{1000, 200};
    for (const char* name : {"bound", "typical"}) {
        INFO(name);
        const Profile& p = *find_profile(name);
        const SimulationResult r = simulate(d, p, 1, w, with(1));
        const double prefill = iteration_ms(d, p, w, 0, 1);
        const double decode = iteration_ms(d, p, w, 1, 0);  // the mean over the contexts 1000 ... 1198
        CHECK(r.ttft_ms.mean == Approx(prefill).epsilon(1e-9));
        CHECK(r.e2e_ms.mean == Approx(prefill + 199 * decode).epsilon(1e-9));
        CHECK(r.tpot_ms.mean == Approx(decode).epsilon(1e-9));
        CHECK(r.iterations == 200);
        CHECK(r.mean_batch == Approx(199 * decode / (prefill + 199 * decode)).epsilon(1e-9));
        CHECK(r.throughput_tok_s == Approx(200 / (r.e2e_ms.mean / 1000)).epsilon(1e-9));
        // Its inter-token latencies are its decode steps: the longest is at its longest context.
        CHECK(r.itl_ms.mean == Approx(decode).epsilon(1e-9));
        CHECK(r.itl_ms.p99 >= r.itl_ms.p50);
    }
}

TEST_CASE("constant arrivals far apart: every request alone, no queue, closer: still no queue below capacity",
          "[simulate]") {
    const Deployment d = deploy("llama-3.1-8b", "h100-sxm", DType::bf16, 1);
    const Profile& p = *find_profile("typical");
    const Workload w{1000, 200};
    const double alone_s = simulate(d, p, 1, w, with(1)).e2e_ms.mean / 1000;
    const SimulationResult apart = simulate(d, p, 0.5 / alone_s, w, with(50, Arrival::constant));
    CHECK(apart.max_queue == 0);
    CHECK(apart.ttft_ms.p99 == Approx(apart.ttft_ms.p50).epsilon(1e-9));
    CHECK(apart.e2e_ms.p99 == Approx(alone_s * 1000).epsilon(1e-9));
    CHECK(apart.mean_batch <= 1);
    // At half of what a replica sustains at its largest batch (the serving model), a constant stream waits for at most
    // the iteration under way: a request is admitted at the next iteration, the queue never holds two.
    const double capacity = replica_state(d, p, w, max_batch(d, p, w)).rps;
    const SimulationResult half = simulate(d, p, 0.5 * capacity, w, with(2000, Arrival::constant));
    CHECK(half.max_queue <= 1);
    CHECK(half.throughput_tok_s == Approx(0.5 * capacity * 200).epsilon(0.02));
}

TEST_CASE("above capacity the queue grows and so does the time to first token", "[simulate]") {
    const Deployment d = deploy("llama-3.1-8b", "h100-sxm", DType::bf16, 1);
    const Profile& p = *find_profile("typical");
    const Workload w{1000, 200};
    const double capacity = replica_state(d, p, w, max_batch(d, p, w)).rps;
    const SimulationResult few = simulate(d, p, 3 * capacity, w, with(1000, Arrival::constant));
    const SimulationResult many = simulate(d, p, 3 * capacity, w, with(3000, Arrival::constant));
    CHECK(few.max_queue > 300);
    CHECK(many.max_queue > 2.5 * few.max_queue);
    CHECK(many.ttft_ms.p99 > 2.5 * few.ttft_ms.p99);
    // What it completes is what a full replica sustains: near the serving model's capacity (its mean iteration).
    CHECK(many.throughput_tok_s / (capacity * 200) == Approx(1).epsilon(0.15));
}

TEST_CASE("Little's law: sequences decoding = arrivals x decode time, percentiles ordered", "[simulate]") {
    const Deployment d = deploy("llama-3.1-70b", "h100-sxm", DType::fp8, 4);
    const Profile& p = *find_profile("typical");
    const Workload w{2000, 300};
    const double capacity = replica_state(d, p, w, max_batch(d, p, w)).rps;
    SimulationOptions o = with(4000);
    o.lengths = Lengths::lognormal;
    o.spread = 0.5;
    const SimulationResult r = simulate(d, p, 0.6 * capacity, w, o);
    for (const Percentiles* q : {&r.ttft_ms, &r.tpot_ms, &r.itl_ms, &r.e2e_ms}) ordered(*q);
    const double decode_s = (r.e2e_ms.mean - r.ttft_ms.mean) / 1000;
    const double busy = r.mean_batch;  // over the time the replica works: at 60% load it works all the time
    CHECK(busy == Approx(r.requests / r.duration_s * decode_s).epsilon(0.1));
    CHECK(r.tpot_ms.mean > iteration_ms(d, p, w, 1, 0));
}

TEST_CASE("the same seed gives the same numbers, bursts raise the tail", "[simulate]") {
    const Deployment d = deploy("llama-3.1-8b", "h100-sxm", DType::bf16, 1);
    const Profile& p = *find_profile("typical");
    const Workload w{1000, 200};
    const double rps = 0.7 * replica_state(d, p, w, max_batch(d, p, w)).rps;
    const SimulationResult a = simulate(d, p, rps, w, with(2000)), b = simulate(d, p, rps, w, with(2000));
    CHECK(a.ttft_ms.p99 == b.ttft_ms.p99);
    CHECK(a.e2e_ms.mean == b.e2e_ms.mean);
    SimulationOptions other = with(2000);
    other.seed = 2;
    CHECK(simulate(d, p, rps, w, other).ttft_ms.p99 != a.ttft_ms.p99);
    SimulationOptions bursty = with(2000, Arrival::gamma);
    bursty.cv = 4;
    const SimulationResult burst = simulate(d, p, rps, w, bursty);
    CHECK(burst.ttft_ms.p99 > 2 * a.ttft_ms.p99);
    CHECK(burst.max_queue > a.max_queue);
    // Gamma with cv 1 is Poisson's law (another stream of numbers, the same tail within noise).
    SimulationOptions one = with(2000, Arrival::gamma);
    one.cv = 1;
    CHECK(simulate(d, p, rps, w, one).ttft_ms.p90 == Approx(a.ttft_ms.p90).epsilon(0.5));
}

TEST_CASE("a full KV memory preempts the newest sequences, which are recomputed, all requests complete", "[simulate]") {
    // Llama 3.1 70B in fp8 on two H100s at 0.6 of their memory: little room beside 35 GB of weights per GPU.
    Deployment d = deploy("llama-3.1-70b", "h100-sxm", DType::fp8, 2);
    const Profile& p = *find_profile("typical");
    const Workload w{4000, 1000};
    SimulationOptions o = with(300);
    o.mem_util = 0.6;
    const SimulationResult r = simulate(d, p, 5, w, o);
    CHECK(r.preemptions > 0);
    CHECK(r.requests == 300);
    o.mem_util = 0.9;
    CHECK(simulate(d, p, 5, w, o).preemptions < r.preemptions);
}

TEST_CASE("a preempted request keeps what it computed in the prefix cache: prompts that barely fit do not thrash",
          "[simulate][cache]") {
    // GPUStack's burst of 100 prompts of 32,000 tokens on BF16 Qwen3-32B on one H100 (tests/data/serving-validation-
    // long.csv): 0.9 of the GPU's memory less 65.5 GB of weights holds one such request and a third of another. A
    // second one admitted chunk by chunk is preempted when the first's decode needs room; what it computed stays
    // cached (vLLM, SGLang and TensorRT-LLM keep it by default), so it resumes, and the replica serves the prompts one
    // after the other at the rate the closed form gives at maximum load. Recomputed from scratch each time, the
    // second request's chunks thrashed: about 70 preemptions a request and a tenth of that rate (until 0.16).
    const Deployment d = deploy("qwen3-32b", "h100-sxm", DType::bf16, 1);
    const Profile& p = *find_profile("typical");
    const Workload w{32000, 77};
    const SimulationResult r = simulate(d, p, 1e6, w, with(20, Arrival::constant));
    CHECK(r.requests == 20);
    CHECK(r.preemptions > 0);
    CHECK(r.preemptions <= 2 * 20);
    const double closed_form = replica_rps(d, p, w, {3.2e10, 3.2e10}).output_tokens_per_s;
    CHECK(r.throughput_tok_s == Approx(closed_form).epsilon(0.25));
}

TEST_CASE("goodput counts the requests within both targets", "[simulate]") {
    const Deployment d = deploy("llama-3.1-8b", "h100-sxm", DType::bf16, 1);
    const Profile& p = *find_profile("typical");
    const Workload w{1000, 200};
    SimulationOptions o = with(1000);
    const double rps = 0.8 * replica_state(d, p, w, max_batch(d, p, w)).rps;
    const SimulationResult all = simulate(d, p, rps, w, o);
    CHECK(all.goodput_rps == Approx(all.requests / all.duration_s));
    o.targets = {all.ttft_ms.p50, 0};
    const SimulationResult half = simulate(d, p, rps, w, o);
    CHECK(half.goodput_rps == Approx(0.5 * all.goodput_rps).epsilon(0.02));
}

TEST_CASE("the simulation's bad inputs name their argument", "[simulate]") {
    const Deployment d = deploy("llama-3.1-8b", "h100-sxm", DType::bf16, 1);
    const Profile& p = *find_profile("typical");
    const auto refused = [&](double rps, Workload w, SimulationOptions o, const char* argument) {
        try {
            simulate(d, p, rps, w, o);
            FAIL("accepted: " << argument);
        } catch (const Error& e) {
            CHECK(e.argument() == argument);
        }
    };
    refused(0, {1000, 200}, with(10), "rps");
    refused(1, {1000, 200}, with(0), "requests");
    refused(1, {1000, 200}, with(1.5), "requests");
    refused(1, {0, 200}, with(10), "prompt_tokens");
    refused(1, {1000, 1}, with(10), "output_tokens");
    SimulationOptions o = with(10, Arrival::gamma);
    o.cv = 0;
    refused(1, {1000, 200}, o, "cv");
    o = with(10);
    o.lengths = Lengths::uniform;
    o.spread = 1;
    refused(1, {1000, 200}, o, "spread");
    o = with(10);
    o.arrival_times_s = {0, 2, 1};
    refused(1, {1000, 200}, o, "arrival_times_s");
    // More work than a formula should compute (a million requests of a thousand tokens): refused at once, naming
    // requests; so is a run that turns out longer than its budget.
    refused(1, {1000, 1000}, with(1000000), "requests");
    o = with(1000);
    o.max_steps = 50000;
    refused(20, {1000, 20}, o, "requests");
    // A request whose cache does not fit alone beside the weights: no solution, naming prompt_tokens.
    refused(1, {2000000, 200}, with(1), "prompt_tokens");
}

TEST_CASE("a shared prefix in the prefix cache is computed once: it lowers the time to first token", "[simulate][cache]") {
    const Deployment d = deploy("llama-3.1-8b", "h100-sxm", DType::bf16, 1);
    const Profile& p = *find_profile("typical");
    const Workload w{2000, 200};
    const double rps = 0.6 * replica_state(d, p, w, max_batch(d, p, w)).rps;
    SimulationOptions o = with(2000);
    const SimulationResult none = simulate(d, p, rps, w, o);
    CHECK(none.prefix_hit_rate == 0);
    o.prefix_tokens = 1500;
    o.prefix_share = 1;
    const SimulationResult all = simulate(d, p, rps, w, o);
    // Every prompt but the first finds 1500 of its 2000 tokens cached.
    CHECK(all.prefix_hit_rate == Approx(0.75 * 1999 / 2000).epsilon(1e-9));
    CHECK(all.ttft_ms.mean < 0.6 * none.ttft_ms.mean);
    CHECK(all.ttft_ms.p99 < none.ttft_ms.p99);
    o.prefix_share = 0.5;
    const SimulationResult half = simulate(d, p, rps, w, o);
    CHECK(half.prefix_hit_rate == Approx(0.75 * 0.5).margin(0.03));
    CHECK(half.ttft_ms.mean < none.ttft_ms.mean);
    CHECK(half.ttft_ms.mean > all.ttft_ms.mean);
    // One request alone with a prefix: no one computed it before, so no hit.
    SimulationOptions one = with(1);
    one.prefix_tokens = 1500;
    one.prefix_share = 1;
    CHECK(simulate(d, p, 1, w, one).ttft_ms.mean == Approx(iteration_ms(d, p, w, 0, 1)).epsilon(1e-9));
}

TEST_CASE("conversations: a turn finds the history in the prefix cache while memory holds it", "[simulate][cache]") {
    const Deployment d = deploy("llama-3.1-8b", "h100-sxm", DType::bf16, 1);
    const Profile& p = *find_profile("typical");
    const Workload w{500, 200};
    // Two turns alone (one conversation, no think time): the second prefills only its new message after 699 cached
    // tokens (500 + 200 less the last answer token, whose cache was never computed): its TTFT is that chunk's.
    SimulationOptions two = with(2);
    two.turns = 2;
    const SimulationResult r = simulate(d, p, 1, w, two);
    CHECK(r.prefix_hit_rate == Approx(699.0 / (500 + 1200)).epsilon(1e-9));
    const double first = iteration_ms(d, p, w, 0, 1), second = 2 * r.ttft_ms.mean - first;
    CHECK(r.ttft_ms.p50 == Approx(r.ttft_ms.mean).epsilon(1e-12));  // the median of two: their mean
    // 500 new tokens attend over more context than the first prompt's (a little slower), far faster than the 1199
    // tokens of the whole conversation computed again.
    CHECK(second > first);
    CHECK(second < 0.6 * iteration_ms(d, p, {1199, 200}, 0, 1));
    // Many conversations of 4 turns with a think time: most of each later prompt is found cached; with little
    // memory beside the weights the histories are evicted and the hit rate falls.
    SimulationOptions o = with(2000);
    o.turns = 4;
    o.think_s = 5;
    const SimulationResult roomy = simulate(d, p, 4, w, o);
    CHECK(roomy.prefix_hit_rate > 0.5);
    Deployment big = deploy("llama-3.1-70b", "h100-sxm", DType::fp8, 2);
    o.mem_util = 0.47;  // about 5 GB per GPU beside 35 GB of weights (0.47 of the 85.52 GB an H100 SXM reports)
    const SimulationResult roomy_big = simulate(big, p, 2, w, with_turns(o, 0.9));
    const SimulationResult tight_big = simulate(big, p, 2, w, o);
    CHECK(tight_big.prefix_hit_rate < roomy_big.prefix_hit_rate);
    CHECK(tight_big.ttft_ms.mean > roomy_big.ttft_ms.mean);
}

TEST_CASE("a second tier of KV memory raises the hit rate and the goodput only where GPU memory binds",
          "[simulate][cache]") {
    const Deployment d = deploy("llama-3.1-70b", "h100-sxm", DType::fp8, 4);
    const Profile& p = *find_profile("typical");
    const Workload w{2000, 300};
    SimulationOptions o = with(2000);
    o.turns = 4;
    o.think_s = 10;
    o.targets = {1000, 50};
    const SimulationResult roomy = simulate(d, p, 3.6, w, o);
    SimulationOptions host = o;
    host.host_kv_gb = 100;
    const SimulationResult roomy_host = simulate(d, p, 3.6, w, host);
    CHECK(roomy_host.offloaded_gb == 0);  // nothing needed the room: the same run
    CHECK(roomy_host.ttft_ms.p99 == roomy.ttft_ms.p99);
    CHECK(roomy_host.goodput_rps == roomy.goodput_rps);
    o.mem_util = host.mem_util = 0.6;  // the histories no longer fit beside the running sequences
    const SimulationResult tight = simulate(d, p, 3.6, w, o), tight_host = simulate(d, p, 3.6, w, host);
    CHECK(tight.prefix_hit_rate < roomy.prefix_hit_rate);
    CHECK(tight_host.offloaded_gb > 1);
    CHECK(tight_host.prefix_hit_rate > tight.prefix_hit_rate);
    CHECK(tight_host.goodput_rps > tight.goodput_rps);
    CHECK(tight_host.ttft_ms.mean < tight.ttft_ms.mean);
    // What comes back costs its transfer: never better than the same histories kept in GPU memory.
    CHECK(tight_host.ttft_ms.mean >= 0.95 * roomy.ttft_ms.mean);
    // A host tier needs a link: DGX Spark's CPU and GPU share one memory, the catalog records none.
    SimulationOptions spark = with(10);
    spark.host_kv_gb = 10;
    const Deployment s = deploy("llama-3.1-8b", "dgx-spark", DType::bf16, 1);
    try {
        simulate(s, p, 1, {1000, 100}, spark);
        FAIL("a host tier without a link was accepted");
    } catch (const Error& e) {
        CHECK(e.argument() == "host_tbs");
    }
    spark.host_tbs = 0.1;
    CHECK(simulate(s, p, 1, {1000, 100}, spark).requests == 10);
}

TEST_CASE("the capacity at a percentile: the largest rate whose simulated percentiles meet both targets",
          "[simulate][percentile]") {
    const Deployment d = deploy("llama-3.1-70b", "h100-sxm", DType::fp8, 4);
    const Profile& p = *find_profile("typical");
    const Workload w{2000, 300};
    const Targets t{500, 50};
    SimulationOptions o = with(1000);
    const ReplicaState mean = replica_rps(d, p, w, t);
    o.percentile = 99;
    const PercentileCapacity p99 = replica_rps_at(d, p, w, t, o);
    o.percentile = 90;
    const PercentileCapacity p90 = replica_rps_at(d, p, w, t, o);
    // A tail target is harder to meet than a mean one, p99 harder than p90.
    CHECK(p99.state.rps < mean.rps);
    CHECK(p99.state.rps <= p90.state.rps);
    CHECK(p99.simulations > 5);
    // At the rate found, the simulation meets both targets at p99; 5% above it, one of them is missed. (The search
    // brackets the rate to 1%, but a percentile of one seeded run is not monotone in the rate to within a few percent:
    // at 0.14's profiles a run 2% above the rate found still met the TTFT target, at 498.5 of 500 ms.)
    o.percentile = 99;
    const SimulationResult at = simulate(d, p, p99.state.rps, w, o);
    CHECK(at.ttft_ms.at <= t.ttft_ms);
    CHECK(at.tpot_ms.at <= t.tpot_ms);
    CHECK(at.ttft_ms.at == Approx(at.ttft_ms.p99));
    CHECK(p99.state.ttft_ms == at.ttft_ms.at);
    const SimulationResult above = simulate(d, p, 1.05 * p99.state.rps, w, o);
    INFO("p99 rate " << p99.state.rps << " (mean's " << mean.rps << "): at it TTFT " << at.ttft_ms.at << ", TPOT "
                     << at.tpot_ms.at << "; 5% above TTFT " << above.ttft_ms.at << ", TPOT " << above.tpot_ms.at);
    CHECK((above.ttft_ms.at > t.ttft_ms || above.tpot_ms.at > t.tpot_ms));
    // bound has no queue and no tail: the closed form's answer.
    const Profile& b = *find_profile("bound");
    CHECK(replica_rps_at(d, b, w, t, o).state.rps == replica_rps(d, b, w, t).rps);
    // Out of range, or a target nothing meets.
    o.percentile = 40;
    CHECK_THROWS_AS(replica_rps_at(d, p, w, t, o), Error);
    o.percentile = 99;
    try {
        replica_rps_at(d, p, w, {500, 12}, o);
        FAIL("a TPOT no batch meets was met");
    } catch (const Error& e) {
        CHECK(e.argument() == "tpot_ms");
    }
}

TEST_CASE("a plan at a percentile: the closed form's shortlist sized again by the simulation", "[simulate][percentile]") {
    PlanOptions o;
    o.gpus = {"h100-sxm", "b200"};
    o.weights = DType::fp8;
    const Workload w{2000, 300};
    const Targets t{500, 50};
    const std::vector<PlanRow> mean = plan("llama-3.1-70b", 100, w, t, o);
    o.percentile = 99;
    const std::vector<PlanRow> p99 = plan("llama-3.1-70b", 100, w, t, o);
    REQUIRE_FALSE(p99.empty());
    // Meeting the targets at p99 costs more than meeting them as means.
    CHECK(*p99.front().usd_per_hour >= *mean.front().usd_per_hour);
    SimulationOptions so;
    so.percentile = 99;
    for (const PlanRow& r : p99) {
        INFO(r.gpu << " tp " << r.tp);
        CHECK(r.ttft_ms <= 500);
        CHECK(r.tpot_ms <= 50);
        // Each row's replicas carry the load at the rate the simulation finds for one replica.
        Deployment d{*find_model("llama-3.1-70b"), *find_gpu(r.gpu), r.linear, DType::bf16, r.tp};
        d.experts = r.experts;
        d.embedding = r.embedding;
        d.layout = r.layout;
        const PercentileCapacity c = replica_rps_at(d, *find_profile("typical"), w, t, so);
        CHECK(r.replicas == std::ceil(100 / c.state.rps));
        CHECK(r.replicas * c.state.rps >= 100);
        CHECK(r.ttft_ms == c.state.ttft_ms);
    }
    // Colocated only; bound keeps the closed form.
    o.disaggregated = true;
    CHECK_THROWS_AS(plan("llama-3.1-70b", 100, w, t, o), Error);
    o.disaggregated = false;
    o.profile = "bound";
    const std::vector<PlanRow> bound = plan("llama-3.1-70b", 100, w, t, o);
    o.percentile = 0;
    CHECK(bound.size() == plan("llama-3.1-70b", 100, w, t, o).size());
}

TEST_CASE("a curve at a percentile: each point's TTFT and TPOT a simulation's at its load", "[simulate][percentile]") {
    Deployment d{*find_model("llama-3.1-70b"), *find_gpu("h100-sxm"), DType::fp8, DType::bf16, 4};
    const Profile& p = *find_profile("typical");
    const Workload w{2000, 300};
    CurveOptions o;
    o.tp = 4;
    const std::vector<CurvePoint> means = curve(d, p, w, o);
    o.percentile = 90;
    const std::vector<CurvePoint> p90 = curve(d, p, w, o);
    REQUIRE(p90.size() == means.size());
    SimulationOptions so;
    so.percentile = 90;
    for (std::size_t i = 0; i < p90.size(); ++i) {
        INFO("batch " << means[i].state.batch);
        // The same loads; the latencies those of a simulation at the load, at p90.
        CHECK(p90[i].state.rps == means[i].state.rps);
        CHECK(p90[i].state.batch == means[i].state.batch);
        const SimulationResult r = simulate(d, p, means[i].state.rps, w, so);
        CHECK(p90[i].state.tpot_ms == r.tpot_ms.at);
        CHECK(p90[i].state.ttft_ms == r.ttft_ms.at);
        CHECK(p90[i].tokens_per_s_per_user == Approx(1000 / r.tpot_ms.at));
        if (i > 0) CHECK(p90[i].state.tpot_ms >= p90[i - 1].state.tpot_ms);
    }
    // A TTFT limit leaves out the points whose p90 TTFT is above it.
    o.ttft_ms = p90[p90.size() / 2].state.ttft_ms;
    for (const CurvePoint& c : curve(d, p, w, o)) CHECK(c.state.ttft_ms <= *o.ttft_ms);
    // The front over every layout, at p90: faster rows sustain less.
    o.tp = 0;
    o.ttft_ms.reset();
    const std::vector<CurvePoint> front = curve(d, p, w, o);
    REQUIRE(front.size() > 2);
    for (std::size_t i = 1; i < front.size(); ++i) {
        CHECK(front[i].state.tpot_ms >= front[i - 1].state.tpot_ms);
        CHECK(front[i].capacity_tokens_per_s_per_gpu > front[i - 1].capacity_tokens_per_s_per_gpu);
    }
    // bound: the means; out of range: refused naming percentile.
    o.tp = 4;
    CHECK(curve(d, *find_profile("bound"), w, o).front().state.tpot_ms ==
          curve(d, *find_profile("bound"), w, CurveOptions{4, {}, {}, defaults::mem_util, 0}).front().state.tpot_ms);
    o.percentile = 100;
    try {
        curve(d, p, w, o);
        FAIL("percentile 100 was taken");
    } catch (const Error& e) {
        CHECK(e.argument() == "percentile");
    }
}

TEST_CASE("a concurrency limit: requests held at the client, a closed loop when they come faster than that",
          "[simulate]") {
    const Deployment d = deploy("llama-3.1-8b", "h100-sxm", DType::bf16, 1);
    const Profile& p = *find_profile("typical");
    const Workload w{1000, 200};
    const SimulationResult alone = simulate(d, p, 1, w, with(1));
    // One at a time, however fast they come: each request alone, counted from when it is sent.
    SimulationOptions one = with(20);
    one.concurrency = 1;
    const SimulationResult serial = simulate(d, p, 1000, w, one);
    CHECK(serial.e2e_ms.p99 == Approx(alone.e2e_ms.mean).epsilon(1e-9));
    CHECK(serial.e2e_ms.p50 == Approx(alone.e2e_ms.mean).epsilon(1e-9));
    CHECK(serial.ttft_ms.p99 == Approx(alone.ttft_ms.mean).epsilon(1e-9));
    CHECK(serial.max_queue <= 1);
    CHECK(serial.mean_batch <= 1);
    // Eight users: at most eight in flight, so at most eight decode; Little's law: the requests completed per second
    // are the eight in flight over the mean latency (the first arrival of the run aside).
    SimulationOptions eight = with(400);
    eight.concurrency = 8;
    const SimulationResult closed = simulate(d, p, 1000, w, eight);
    CHECK(closed.mean_batch <= 8);
    CHECK(closed.mean_batch > 6);
    CHECK(closed.max_queue <= 8);
    CHECK(400 / closed.duration_s == Approx(8 / (closed.e2e_ms.mean / 1000)).epsilon(0.03));
    // Without the limit the same stream queues at the replica: its first tokens wait longer.
    const SimulationResult open = simulate(d, p, 1000, w, with(400));
    CHECK(open.max_queue > 8);
    // Below the limit nothing is held: the same run as without it.
    SimulationOptions loose = with(400);
    loose.concurrency = 1000;
    CHECK(simulate(d, p, 5, w, loose).ttft_ms.p99 == simulate(d, p, 5, w, with(400)).ttft_ms.p99);
    SimulationOptions bad = with(10);
    bad.concurrency = 1.5;
    try {
        simulate(d, p, 1, w, bad);
        FAIL("concurrency 1.5 was taken");
    } catch (const Error& e) {
        CHECK(e.argument() == "concurrency");
    }
}

TEST_CASE("a trace: arrival times and lengths row by row", "[simulate]") {
    const Deployment d = deploy("llama-3.1-8b", "h100-sxm", DType::bf16, 1);
    const Profile& p = *find_profile("typical");
    const Workload w{1000, 200};
    // Two requests far apart, each alone: the first of the workload's lengths, the second of its own row's.
    SimulationOptions o;
    o.arrival_times_s = {0, 100};
    o.length_rows = {{1000, 200}, {500, 100}};
    const SimulationResult r = simulate(d, p, 1, w, o);
    const double first = simulate(d, p, 1, w, with(1)).e2e_ms.mean;
    const double second = simulate(d, p, 1, {500, 100}, with(1)).e2e_ms.mean;
    CHECK(r.requests == 2);
    CHECK(r.e2e_ms.mean == Approx((first + second) / 2).epsilon(1e-9));
    CHECK(r.duration_s == Approx(100 + second / 1000).epsilon(1e-9));
    // Rows cycle when the requests outnumber them; rps and the workload's lengths are aside.
    SimulationOptions cycled = with(6, Arrival::constant);
    cycled.length_rows = {{500, 100}};
    const SimulationResult c = simulate(d, p, 0.01, {3000, 900}, cycled);
    CHECK(c.e2e_ms.p99 == Approx(second).epsilon(1e-9));
    CHECK(c.throughput_tok_s == Approx(600 / c.duration_s).epsilon(1e-9));
    // A row that is not a length, or arrivals out of order: named.
    o.length_rows = {{1000, 200}, {500, 1}};
    try {
        simulate(d, p, 1, w, o);
        FAIL("an output of one token was taken");
    } catch (const Error& e) {
        CHECK(e.argument() == "length_rows");
        CHECK(std::string(e.what()).find("row 2") != std::string::npos);
    }
    o.length_rows.clear();
    o.arrival_times_s = {5, 1};
    CHECK_THROWS_AS(simulate(d, p, 1, w, o), Error);
}

TEST_CASE("the batch at a percentile: the most concurrent requests whose TPOT meets the target there", "[simulate][percentile]") {
    const Deployment d = deploy("llama-3.1-8b", "h100-sxm", DType::bf16, 1);
    const Profile& p = *find_profile("typical");
    SimulationOptions o;
    o.percentile = 99;
    const double b = slo_batch_at(d, p, 4096, 15, 2048, o);
    REQUIRE(b >= 2);
    // A closed loop of that many users meets 15 ms at p99 (its first requests sent together here, not spread: within
    // a few percent); twice as many do not.
    SimulationOptions loop;
    loop.percentile = 99;
    loop.concurrency = b;
    loop.requests = 20 * b;
    CHECK(simulate(d, p, 1e6, {2048, 2048}, loop).tpot_ms.p99 <= 15 * 1.05);
    loop.concurrency = 2 * b;
    loop.requests = 40 * b;
    CHECK(simulate(d, p, 1e6, {2048, 2048}, loop).tpot_ms.p99 > 15);
    // A looser target, or a lower percentile, takes at least as many.
    CHECK(slo_batch_at(d, p, 4096, 20, 2048, o) >= b);
    o.percentile = 50;
    CHECK(slo_batch_at(d, p, 4096, 15, 2048, o) >= b);
    // bound and percentile 0: the closed form (the decode step at ctx).
    CHECK(slo_batch_at(d, *find_profile("bound"), 4096, 15, 2048, o) == slo_batch(d, *find_profile("bound"), 4096, 15));
    o.percentile = 0;
    CHECK(slo_batch_at(d, p, 4096, 15, 0, o) == slo_batch(d, p, 4096, 15));
    // A prompt that leaves no answer, a target one sequence misses: named.
    o.percentile = 99;
    for (const auto& [prompt, tpot, argument] :
         {std::tuple{4095.0, 15.0, "prompt_tokens"}, {0.0, 15.0, "prompt_tokens"}, {2048.0, 1.0, "tpot_ms"}}) {
        try {
            slo_batch_at(d, p, 4096, tpot, prompt, o);
            FAIL("taken: prompt " << prompt << ", tpot " << tpot);
        } catch (const Error& e) {
            CHECK(e.argument() == argument);
        }
    }
}
