// A small evaluator of spreadsheet expressions, for tests: numbers, "text", + - * / ^, parentheses,
// ISERROR(...) and ROOFLINE_*(...; ...) calls, which go through the C ABI's roofline_call().
// It evaluates the formulas of seed-cases.json as a spreadsheet would.
#pragma once

#include <roofline.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace expr {

struct Value {
    enum Kind { number, text, error } kind = number;
    double n = 0;
    std::string s;  // the text, or the error message
};

class Parser {
public:
    explicit Parser(std::string src) : src_(std::move(src)) {}

    Value parse() {
        Value v = sum();
        skip();
        if (pos_ != src_.size()) throw std::runtime_error("trailing input in: " + src_);
        return v;
    }

private:
    std::string src_;
    std::size_t pos_ = 0;

    void skip() { while (pos_ < src_.size() && std::isspace(static_cast<unsigned char>(src_[pos_]))) ++pos_; }
    bool eat(char c) {
        skip();
        if (pos_ < src_.size() && src_[pos_] == c) { ++pos_; return true; }
        return false;
    }
    static Value err(std::string m) { return {Value::error, 0, std::move(m)}; }

    static Value arith(char op, const Value& a, const Value& b) {
        if (a.kind == Value::error) return a;
        if (b.kind == Value::error) return b;
        if (a.kind != Value::number || b.kind != Value::number) return err("arithmetic on text");
        switch (op) {
            case '+': return {Value::number, a.n + b.n, {}};
            case '-': return {Value::number, a.n - b.n, {}};
            case '*': return {Value::number, a.n * b.n, {}};
            case '/': return b.n == 0 ? err("division by zero") : Value{Value::number, a.n / b.n, {}};
            default: return {Value::number, std::pow(a.n, b.n), {}};
        }
    }

    Value sum() {
        Value v = product();
        for (;;) {
            if (eat('+')) v = arith('+', v, product());
            else if (eat('-')) v = arith('-', v, product());
            else return v;
        }
    }
    Value product() {
        Value v = power();
        for (;;) {
            if (eat('*')) v = arith('*', v, power());
            else if (eat('/')) v = arith('/', v, power());
            else return v;
        }
    }
    Value power() {
        Value v = unary();
        while (eat('^')) v = arith('^', v, unary());
        return v;
    }
    Value unary() {
        if (eat('-')) return arith('-', {Value::number, 0, {}}, unary());
        return primary();
    }
    Value primary() {
        skip();
        if (eat('(')) {
            Value v = sum();
            if (!eat(')')) throw std::runtime_error("missing ) in: " + src_);
            return v;
        }
        if (eat('"')) {
            std::size_t end = src_.find('"', pos_);
            Value v{Value::text, 0, src_.substr(pos_, end - pos_)};
            pos_ = end + 1;
            return v;
        }
        if (pos_ < src_.size() && (std::isdigit(static_cast<unsigned char>(src_[pos_])) || src_[pos_] == '.')) {
            char* end = nullptr;
            double d = std::strtod(src_.c_str() + pos_, &end);
            pos_ = static_cast<std::size_t>(end - src_.c_str());
            return {Value::number, d, {}};
        }
        std::size_t start = pos_;
        while (pos_ < src_.size() && (std::isalnum(static_cast<unsigned char>(src_[pos_])) || src_[pos_] == '_'))
            ++pos_;
        std::string name = src_.substr(start, pos_ - start);
        if (name.empty() || !eat('(')) throw std::runtime_error("cannot parse: " + src_);
        std::vector<Value> args;
        if (!eat(')')) {
            do args.push_back(sum());
            while (eat(';'));
            if (!eat(')')) throw std::runtime_error("missing ) after arguments in: " + src_);
        }
        return call(name, args);
    }

    static Value call(const std::string& name, const std::vector<Value>& args) {
        if (name == "ISERROR")
            return {Value::number, args.size() == 1 && args[0].kind == Value::error ? 1.0 : 0.0, {}};
        std::vector<roofline_value> in;
        for (const Value& a : args) {
            if (a.kind == Value::error) return a;
            in.push_back({a.n, a.kind == Value::text ? a.s.c_str() : nullptr});
        }
        roofline_array* r = nullptr;
        const int status = roofline_call(name.c_str(), in.data(), in.size(), &r);
        if (status != ROOFLINE_OK) return err(roofline_errmsg());
        Value v;
        if (roofline_array_rows(r) != 1 || roofline_array_cols(r) != 1) v = err("array result");
        else if (roofline_array_is_text(r, 0, 0)) v = {Value::text, 0, roofline_array_text(r, 0, 0)};
        else v = {Value::number, roofline_array_number(r, 0, 0), {}};
        roofline_array_free(r);
        return v;
    }
};

inline Value evaluate(const std::string& formula) { return Parser(formula).parse(); }

}  // namespace expr
