// Every figure of the article (tests/data/seed-cases.json), computed through the C ABI.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "support/expr.hpp"

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

nlohmann::json seed_cases() { return nlohmann::json::parse(slurp(ROOFLINE_SEED_CASES)); }

}  // namespace

TEST_CASE("the committed seed cases are the shared reference's", "[seed][data]") {
    const std::string shared = slurp(ROOFLINE_SHARED_SEED_CASES);
    if (shared.empty()) {
        WARN("no shared reference at " ROOFLINE_SHARED_SEED_CASES "; the committed copy stands alone");
        return;
    }
    REQUIRE(slurp(ROOFLINE_SEED_CASES) == shared);
}

TEST_CASE("every seed case computes through the C ABI within its tolerance", "[seed]") {
    const nlohmann::json doc = seed_cases();
    const char* only = std::getenv("ROOFLINE_SEED_CASE");
    int checked = 0;
    for (const auto& c : doc.at("cases")) {
        const std::string id = c.at("id");
        if (only && id != only) continue;
        const std::string formula = c.at("formula");
        INFO(id << ": " << formula);
        const expr::Value v = expr::evaluate(formula);
        if (c.at("exact").is_string()) {
            REQUIRE(v.kind == expr::Value::text);
            CHECK(v.s == c.at("exact").get<std::string>());
        } else {
            INFO("error: " << v.s);
            REQUIRE(v.kind == expr::Value::number);
            const double exact = c.at("exact");
            const double tol = c.at("rel_tol");
            INFO("got " << v.n << ", exact " << exact << ", rel_tol " << tol);
            CHECK(std::abs(v.n - exact) <= tol * std::abs(exact));
        }
        ++checked;
    }
    REQUIRE(checked >= 1);
}
