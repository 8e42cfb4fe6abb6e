// roofline.h declares exactly the formulas of the table, each as the formula contract says:
// every argument in formula order, numbers as double, text as const char*, the result last.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "roofline/catalog.hpp"
#include "roofline/formulas.hpp"

namespace {

std::string header_text() {
    std::ifstream in(ROOFLINE_HEADER);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The header without comments, whitespace collapsed.
std::string normalized_header() {
    const std::string text = header_text();
    // Block comments out by hand: std::regex recurses once per character of a match, and the header's longest
    // comments overflow the stack of a sanitized build.
    std::string s;
    for (std::size_t from = 0;;) {
        const std::size_t at = text.find("/*", from);
        s.append(text, from, at == std::string::npos ? std::string::npos : at - from);
        if (at == std::string::npos) break;
        const std::size_t end = text.find("*/", at + 2);
        REQUIRE(end != std::string::npos);
        s += ' ';
        from = end + 2;
    }
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
        // (and a _v3 where it grew again) with more of them, the last with all (roofline.h, HOW THE ABI GROWS).
        const auto typed = roofline::c_functions(f);
        CHECK(typed.front().name == roofline::c_function_name(f.name));
        CHECK(typed.back().args == f.args.size());
        for (const roofline::CFunction& c : typed) {
            const std::string proto = expected_prototype(f, c.name, c.args);
            INFO(proto);
            CHECK(header.find(proto) != std::string::npos);
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
    std::set<std::string> expected;
    for (const auto& f : roofline::formulas())
        for (const roofline::CFunction& c : roofline::c_functions(f)) expected.insert(c.name);
    CHECK(declared == expected);
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

namespace {

/// The comment right before the declaration of `c_name` in roofline.h, its "** " line starts removed and its
/// lines joined by spaces.
std::string comment_of(const std::string& header, const std::string& c_name) {
    const std::size_t declaration = header.find("ROOFLINE_API int " + c_name + "(");
    if (declaration == std::string::npos) return "";
    const std::size_t end = header.rfind("*/", declaration);
    const std::size_t start = header.rfind("/*", end);
    std::string s = header.substr(start + 2, end - start - 2);
    s = std::regex_replace(s, std::regex(R"(\n\s*\*\*?)"), " ");
    return std::regex_replace(s, std::regex(R"(\s+)"), " ");
}

/// "a, b, c" as {"a", "b", "c"}: how the table lists an array formula's columns (its result unit) and the
/// catalog fields of a `field` argument.
std::vector<std::string> comma_list(std::string s) {
    std::vector<std::string> items;
    s = std::regex_replace(s, std::regex(R"(\([^()]*\))"), "");  // "(dense TFLOP/s)" and the like
    std::size_t at = 0;
    while (at <= s.size()) {
        std::size_t next = s.find(',', at);
        if (next == std::string::npos) next = s.size();
        std::string item = std::regex_replace(s.substr(at, next - at), std::regex(R"(^\s+|\s+$)"), "");
        if (!item.empty()) items.push_back(item);
        at = next + 1;
    }
    return items;
}

/// The field names a text lists after `intro` ("Fields:" in roofline.h, "A field of the GPU catalog:" in the
/// table), up to the sentence's end: the first word of each comma-separated item.
std::vector<std::string> field_list(const std::string& text, const std::string& intro) {
    const std::size_t at = text.find(intro);
    if (at == std::string::npos) return {};
    std::string rest = text.substr(at + intro.size());
    // Drop parenthesized remarks (nested once), then stop at the end of the sentence.
    rest = std::regex_replace(rest, std::regex(R"(\((?:[^()]|\([^()]*\))*\))"), "");
    rest = rest.substr(0, rest.find(". "));
    std::vector<std::string> names;
    for (const std::string& item : comma_list(rest)) {
        std::smatch m;
        if (std::regex_search(item, m, std::regex(R"(\b([a-z][a-z0-9_]*)\b)"))) names.push_back(m[1]);
    }
    return names;
}

/// A formula's example as arguments of roofline::call(): "1" a number, "\"a\"" a text, {"a"; 1 | "b"; 2} (Calc's
/// inline array) a table argument's text (cells by tabs, rows by line breaks).
std::vector<roofline::Arg> example_args(const std::string& example) {
    std::vector<roofline::Arg> args;
    const std::size_t open = example.find('(');
    const std::string inside = example.substr(open + 1, example.rfind(')') - open - 1);
    std::string cell;
    bool quoted = false, in_array = false, was_text = false;
    std::string array;
    auto flush = [&] {
        std::string t = std::regex_replace(cell, std::regex(R"(^\s+|\s+$)"), "");
        if (!array.empty() || in_array) args.push_back({array});
        else if (was_text) args.push_back({t});
        else if (!t.empty()) args.push_back({std::stod(t)});
        cell.clear();
        array.clear();
        was_text = false;
    };
    for (char c : inside) {
        if (c == '"') {
            quoted = !quoted;
            was_text = true;
            continue;
        }
        if (in_array) {
            if (quoted) array += c;
            else if (c == '}') in_array = false;
            else if (c == ';') array += '\t';
            else if (c == '|') array += '\n';
            else if (c != ' ') array += c;
            continue;
        }
        if (!quoted && c == '{') { in_array = true; continue; }
        if (!quoted && c == ';') { flush(); continue; }
        cell += c;
    }
    if (!inside.empty()) flush();
    return args;
}

}  // namespace

TEST_CASE("roofline.h documents each array formula's columns and each field list as the table has them",
          "[header]") {
    const std::string header = header_text();
    const std::map<std::string, int> words{{"one", 1}, {"two", 2}, {"three", 3}, {"four", 4}, {"five", 5}};
    int arrays = 0;
    for (const auto& f : roofline::formulas()) {
        if (f.result != roofline::Type::array) continue;
        ++arrays;
        const std::string c_name = roofline::c_function_name(f.name);
        const std::string comment = comment_of(header, c_name);
        INFO(f.name << ": " << comment);
        REQUIRE(!comment.empty());
        const std::vector<std::string> columns = comma_list(f.result_unit);
        // What the formula returns on its example: a header row (the columns' names, as texts) or none.
        const auto result = roofline::call(f.name, example_args(f.example));
        const auto& table = std::get<roofline::Table>(result.value);
        CHECK(table.cols == columns.size());
        bool has_header = table.rows > 0;
        for (std::size_t c = 0; has_header && c < table.cols; ++c) {
            const auto* text = std::get_if<std::string>(&table.cells[c]);
            has_header = text && *text == columns[c];
        }
        std::smatch m;
        if (has_header) {
            // "a header row ("a", "b", ...)" in the comment, in the table's order.
            REQUIRE(std::regex_search(comment, m, std::regex(R"(header row \(("[^)]*")\))")));
            std::vector<std::string> documented;
            const std::string quoted = m[1];
            const std::regex name(R"x("([^"]*)")x");
            for (auto it = std::sregex_iterator(quoted.begin(), quoted.end(), name);
                 it != std::sregex_iterator(); ++it)
                documented.push_back((*it)[1]);
            CHECK(documented == columns);
        } else {
            // No header row: the comment says how many columns, in words ("two number columns").
            REQUIRE(std::regex_search(comment, m, std::regex(R"(\b(one|two|three|four|five) (?:\w+ )?columns?\b)")));
            CHECK(words.at(m[1]) == static_cast<int>(columns.size()));
        }
    }
    CHECK(arrays >= 6);

    // ROOFLINE_GPU and ROOFLINE_MODEL: the fields roofline.h lists, the `field` argument's text lists, and the
    // catalog gives (catalog.cpp, kGpuFields and kModelFields) are the same, in the same order.
    struct FieldFormula {
        const char* name;
        const char* table_intro;
        std::vector<std::string> fields;
    };
    const FieldFormula field_formulas[] = {
        {"ROOFLINE_GPU", "A field of the GPU catalog:", roofline::gpu_field_names()},
        {"ROOFLINE_MODEL", "A field of the model catalog:", roofline::model_field_names()},
    };
    for (const FieldFormula& ff : field_formulas) {
        INFO(ff.name);
        const roofline::FormulaSpec* f = roofline::find_formula(ff.name);
        REQUIRE(f != nullptr);
        const auto field_arg = std::find_if(f->args.begin(), f->args.end(),
                                            [](const roofline::ArgSpec& a) { return std::string(a.name) == "field"; });
        REQUIRE(field_arg != f->args.end());
        CHECK(field_list(field_arg->description_en, ff.table_intro) == ff.fields);
        CHECK(field_list(comment_of(header, roofline::c_function_name(f->name)), "Fields:") == ff.fields);
    }
}
