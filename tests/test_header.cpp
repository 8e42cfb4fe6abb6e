// roofline.h declares exactly the formulas of the table, each as the formula contract says:
// every argument in formula order, numbers as double, text as const char*, the result last.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>

#include "roofline/formulas.hpp"

namespace {

/// The header without comments, whitespace collapsed.
std::string normalized_header() {
    std::ifstream in(ROOFLINE_HEADER);
    std::string s{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    s = std::regex_replace(s, std::regex(R"(/\*[\s\S]*?\*/)"), " ");
    s = std::regex_replace(s, std::regex(R"(\s+)"), " ");
    s = std::regex_replace(s, std::regex(R"(\( )"), "(");
    return s;
}

std::string expected_prototype(const roofline::FormulaSpec& f) {
    using roofline::Type;
    std::string s = "ROOFLINE_API int " + roofline::c_function_name(f.name) + "(";
    for (const auto& a : f.args)
        s += a.type == Type::rest ? std::string("const roofline_value* args, size_t nargs, ")
                                  : std::string(a.type == Type::text ? "const char* " : "double ") + a.name + ", ";
    s += f.result == Type::number ? "double* result" : f.result == Type::text ? "const char** result"
                                                                               : "roofline_array** result";
    return s + ");";
}

}  // namespace

TEST_CASE("every formula of the table is declared in roofline.h as the contract says", "[header]") {
    const std::string header = normalized_header();
    for (const auto& f : roofline::formulas()) {
        const std::string proto = expected_prototype(f);
        INFO(proto);
        CHECK(header.find(proto) != std::string::npos);
    }
}

TEST_CASE("roofline.h declares no formula function that the table lacks", "[header]") {
    const std::string header = normalized_header();
    const std::regex fn(R"(int (roofline_\w+)\([^)]*\bresult\);)");
    std::set<std::string> declared;
    for (auto it = std::sregex_iterator(header.begin(), header.end(), fn); it != std::sregex_iterator(); ++it)
        declared.insert((*it)[1]);
    declared.erase("roofline_call");
    CHECK(declared.size() == roofline::formulas().size());
    for (const auto& name : declared) {
        INFO(name);
        CHECK(roofline::find_formula(name) != nullptr);
    }
}
