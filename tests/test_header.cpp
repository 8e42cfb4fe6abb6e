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

std::string header_text() {
    std::ifstream in(ROOFLINE_HEADER);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The header without comments, whitespace collapsed.
std::string normalized_header() {
    std::string s = header_text();
    s = std::regex_replace(s, std::regex(R"(/\*[\s\S]*?\*/)"), " ");
    s = std::regex_replace(s, std::regex(R"(\s+)"), " ");
    s = std::regex_replace(s, std::regex(R"(\( )"), "(");
    return s;
}

/// The typed function of the formula's first `count` arguments, named `c_name`.
std::string expected_prototype(const roofline::FormulaSpec& f, const std::string& c_name, std::size_t count) {
    using roofline::Type;
    std::string s = "ROOFLINE_API int " + c_name + "(";
    for (std::size_t i = 0; i < count; ++i) {
        const auto& a = f.args[i];
        s += a.type == Type::rest ? std::string("const roofline_value* args, size_t nargs, ")
                                  : std::string(roofline::passed_as_text(a.type) ? "const char* " : "double ") + a.name + ", ";
    }
    s += f.result == Type::number ? "double* result" : f.result == Type::text ? "const char** result"
                                                                               : "roofline_array** result";
    return s + ");";
}

}  // namespace

TEST_CASE("every formula of the table is declared in roofline.h as the contract says", "[header]") {
    const std::string header = normalized_header();
    for (const auto& f : roofline::formulas()) {
        // The released function with the arguments it was released with; where the formula grew after it, a _v2
        // function with all of them (roofline.h, HOW THE ABI GROWS).
        const std::string c_name = roofline::c_function_name(f.name);
        const std::string proto = expected_prototype(f, c_name, f.c_arg_count());
        INFO(proto);
        CHECK(header.find(proto) != std::string::npos);
        if (f.c_arg_count() < f.args.size()) {
            const std::string all = expected_prototype(f, c_name + "_v2", f.args.size());
            INFO(all);
            CHECK(header.find(all) != std::string::npos);
        }
    }
}

TEST_CASE("roofline.h declares no formula function that the table lacks", "[header]") {
    const std::string header = normalized_header();
    const std::regex fn(R"(int (roofline_\w+)\([^)]*\bresult\);)");
    std::set<std::string> declared;
    for (auto it = std::sregex_iterator(header.begin(), header.end(), fn); it != std::sregex_iterator(); ++it)
        declared.insert((*it)[1]);
    declared.erase("roofline_call");
    std::size_t grown = 0;
    for (const auto& f : roofline::formulas()) grown += f.c_arg_count() < f.args.size();
    CHECK(declared.size() == roofline::formulas().size() + grown);
    for (std::string name : declared) {
        INFO(name);
        const bool v2 = name.size() > 3 && name.compare(name.size() - 3, 3, "_v2") == 0;
        if (v2) name.resize(name.size() - 3);
        const roofline::FormulaSpec* f = roofline::find_formula(name);
        REQUIRE(f != nullptr);
        if (v2) CHECK(f->c_arg_count() < f->args.size());
    }
}

TEST_CASE("every formula's C function is documented where declared: the comment before it names the formula",
          "[header]") {
    const std::string header = header_text();
    for (const auto& f : roofline::formulas()) {
        const std::string c_name = roofline::c_function_name(f.name);
        INFO(c_name);
        const std::size_t declaration = header.find("ROOFLINE_API int " + c_name + "(");
        REQUIRE(declaration != std::string::npos);
        const std::size_t comment_end = header.rfind("*/", declaration);
        REQUIRE(comment_end != std::string::npos);
        // Only whitespace between the comment and the declaration.
        CHECK(header.find_first_not_of(" \t\n", comment_end + 2) == declaration);
        const std::size_t comment_start = header.rfind("/*", comment_end);
        CHECK(header.substr(comment_start, comment_end - comment_start).find(std::string(f.name) + "(") !=
              std::string::npos);
    }
}
