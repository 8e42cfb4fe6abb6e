// The libroofline Calc add-in: one UNO component, org.libroofline.RooflineAddIn, modelled on
// LibreOffice's scaddins. Its formula methods are generated from the formula table (addin_methods.inc);
// the Function Wizard's names and descriptions, in English and Chinese, are read from the same table
// through the C ABI. This file converts between UNO and C types and computes nothing.
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <cppuhelper/factory.hxx>
#include <cppuhelper/implbase5.hxx>
#include <cppuhelper/implementationentry.hxx>
#include <cppuhelper/supportsservice.hxx>
#include <rtl/string.hxx>
#include <rtl/ustring.hxx>
#include <uno/lbnames.h>

#include <com/sun/star/lang/IllegalArgumentException.hpp>
#include <com/sun/star/lang/Locale.hpp>
#include <com/sun/star/lang/XServiceInfo.hpp>
#include <com/sun/star/lang/XServiceName.hpp>
#include <com/sun/star/sheet/LocalizedName.hpp>
#include <com/sun/star/sheet/XAddIn.hpp>
#include <com/sun/star/sheet/XCompatibilityNames.hpp>
#include <com/sun/star/uno/RuntimeException.hpp>
#include <com/sun/star/uno/Sequence.hxx>
#include <com/sun/star/uno/XComponentContext.hpp>

#include <org/libroofline/XRoofline.hpp>

#include <roofline.h>

namespace css = ::com::sun::star;
using ::rtl::OUString;

namespace {

// The frozen names: .ods files store calls as ORG.LIBROOFLINE.ROOFLINEADDIN.<FORMULA>(...).
constexpr const char kServiceName[] = "org.libroofline.RooflineAddIn";
constexpr const char kAddInService[] = "com.sun.star.sheet.AddIn";
// LibreOffice 7.4 honours only its predefined categories; anything else falls back to "Add-In".
constexpr const char kCategory[] = "Add-In";

using Array = css::uno::Sequence<css::uno::Sequence<css::uno::Any>>;

OUString fromUtf8(const char* s) { return s ? OUString(s, std::strlen(s), RTL_TEXTENCODING_UTF8) : OUString(); }

std::string utf8(const OUString& s) {
    const rtl::OString o = rtl::OUStringToOString(s, RTL_TEXTENCODING_UTF8);
    return std::string(o.getStr(), static_cast<std::size_t>(o.getLength()));
}

css::uno::Sequence<OUString> serviceNames() {
    css::uno::Sequence<OUString> names(2);
    names.getArray()[0] = OUString::createFromAscii(kAddInService);
    names.getArray()[1] = OUString::createFromAscii(kServiceName);
    return names;
}

/// The user's own catalog, loaded once when the office first creates the add-in, never by a formula:
/// roofline_catalog_load_user_folder() reads $XDG_CONFIG_HOME/libroofline (else ~/.config/libroofline),
/// every catalog/*.json and models/<id>.json. A workbook cannot name a file, so sharing one never makes
/// anyone's machine read one. A file that does not load is reported on stderr; the others are used.
void load_user_catalog() noexcept {
    if (roofline_catalog_load_user_folder(nullptr, nullptr) == ROOFLINE_OK) return;
    const char* detail = roofline_errdetail();
    while (*detail) {
        const char* end = std::strchr(detail, '\n');
        const int n = static_cast<int>(end ? end - detail : std::strlen(detail));
        std::fprintf(stderr, "libroofline: %.*s\n", n, detail);
        detail += n + (end ? 1 : 0);
    }
}

using Base = cppu::WeakImplHelper5<css::sheet::XAddIn, css::sheet::XCompatibilityNames, org::libroofline::XRoofline,
                                   css::lang::XServiceName, css::lang::XServiceInfo>;

class RooflineAddIn : public Base {
public:
    RooflineAddIn() {
        static std::once_flag loaded;
        std::call_once(loaded, load_user_catalog);
    }

    // ---- The formulas (generated from the formula table) ----
#include "addin_methods.inc"

    // ---- XLocalizable (through XAddIn) ----
    void SAL_CALL setLocale(const css::lang::Locale& locale) override { locale_ = locale; }
    css::lang::Locale SAL_CALL getLocale() override { return locale_; }

    // ---- XAddIn: the Function Wizard's texts, from the formula table ----
    OUString SAL_CALL getProgrammaticFuntionName(const OUString& display) override {
        const roofline_formula_info* f = roofline_formula_find(utf8(display).c_str());
        return f ? OUString::createFromAscii(f->name) : OUString();
    }
    OUString SAL_CALL getDisplayFunctionName(const OUString& programmatic) override {
        const roofline_formula_info* f = find(programmatic);
        return f ? OUString::createFromAscii(f->name) : OUString();
    }
    OUString SAL_CALL getFunctionDescription(const OUString& programmatic) override {
        const roofline_formula_info* f = find(programmatic);
        return f ? fromUtf8(chinese() ? f->description_zh : f->description_en) : OUString();
    }
    OUString SAL_CALL getDisplayArgumentName(const OUString& programmatic, sal_Int32 index) override {
        const roofline_arg_info* a = arg(programmatic, index);
        return a ? OUString::createFromAscii(a->name) : OUString();
    }
    OUString SAL_CALL getArgumentDescription(const OUString& programmatic, sal_Int32 index) override {
        const roofline_arg_info* a = arg(programmatic, index);
        if (!a) return OUString();
        std::string text = chinese() ? a->description_zh : a->description_en;
        // The default as the library shows it everywhere (roofline_arg_default_string): no formatting
        // here. Only REST arguments are optional without a default; their description says so.
        const std::string shown = roofline_arg_default_string(a);
        if (a->optional && !shown.empty())
            text += chinese() ? " 可省略，默认值：" + shown + "。" : " Optional, default: " + shown + ".";
        return fromUtf8(text.c_str());
    }
    OUString SAL_CALL getProgrammaticCategoryName(const OUString&) override {
        return OUString::createFromAscii(kCategory);
    }
    OUString SAL_CALL getDisplayCategoryName(const OUString&) override { return OUString::createFromAscii(kCategory); }

    // ---- XCompatibilityNames: the names written to .xls files ----
    css::uno::Sequence<css::sheet::LocalizedName> SAL_CALL getCompatibilityNames(const OUString& programmatic) override {
        const roofline_formula_info* f = find(programmatic);
        if (!f) return css::uno::Sequence<css::sheet::LocalizedName>();
        css::uno::Sequence<css::sheet::LocalizedName> names(1);
        names.getArray()[0] =
            css::sheet::LocalizedName(css::lang::Locale("en", "US", OUString()), OUString::createFromAscii(f->name));
        return names;
    }

    // ---- XServiceName, XServiceInfo ----
    OUString SAL_CALL getServiceName() override { return OUString::createFromAscii(kServiceName); }
    OUString SAL_CALL getImplementationName() override { return OUString::createFromAscii(kServiceName); }
    sal_Bool SAL_CALL supportsService(const OUString& name) override { return cppu::supportsService(this, name); }
    css::uno::Sequence<OUString> SAL_CALL getSupportedServiceNames() override { return serviceNames(); }

private:
    css::lang::Locale locale_;

    bool chinese() const { return locale_.Language == "zh"; }

    static const roofline_formula_info* find(const OUString& programmatic) {
        return roofline_formula_find(utf8(programmatic).c_str());
    }
    static const roofline_arg_info* arg(const OUString& programmatic, sal_Int32 index) {
        const roofline_formula_info* f = find(programmatic);
        return f && index >= 0 && static_cast<size_t>(index) < f->arg_count ? f->args[index] : nullptr;
    }

    const roofline_formula_info& formula(const char* name) {
        const roofline_formula_info* f = roofline_formula_find(name);
        if (!f) throw css::uno::RuntimeException(OUString::createFromAscii(name), getXWeak());
        return *f;
    }

    css::uno::Reference<css::uno::XInterface> getXWeak() { return static_cast<cppu::OWeakObject*>(this); }

    /// The values of a REST argument (Calc's varargs) for the C ABI; owns their UTF-8 texts.
    struct Rest {
        std::vector<std::optional<std::string>> texts;  // a text, or none for a number
        std::vector<double> numbers;
        /// As roofline_values, valid while this Rest lives.
        std::vector<roofline_value> values() const {
            std::vector<roofline_value> out(numbers.size());
            for (size_t i = 0; i < out.size(); ++i) out[i] = {numbers[i], texts[i] ? texts[i]->c_str() : nullptr};
            return out;
        }
    };

    /// A REST argument: the arguments of the formula `of` (ROOFLINE_WHY's first argument), each a
    /// number, a text or a one-cell range. Empty ones at the end are left out; an empty one before
    /// another takes that formula's default, as the formula itself would (NaN where it has none, which
    /// the library then names).
    Rest rest(const roofline_formula_info& f, size_t index, const css::uno::Sequence<css::uno::Any>& given,
              const char* of) {
        const roofline_formula_info* target = of ? roofline_formula_find(of) : nullptr;
        sal_Int32 count = given.getLength();
        while (count > 0 && !given[count - 1].hasValue()) --count;
        Rest out;
        for (sal_Int32 i = 0; i < count; ++i) {
            css::uno::Any value = given[i];
            Array range;
            if ((value >>= range) && range.getLength() == 1 && range[0].getLength() == 1) value = range[0][0];
            OUString s;
            double d = 0;
            const roofline_arg_info* arg =
                target && static_cast<size_t>(i) < target->arg_count ? target->args[i] : nullptr;
            if (arg && arg->type == ROOFLINE_TYPE_TABLE) {  // the explained formula's range, as it takes it
                Array cells;
                if (!(value >>= cells)) {
                    cells.realloc(1);
                    cells.getArray()[0] = css::uno::Sequence<css::uno::Any>(&value, 1);
                }
                out.texts.emplace_back(table(f, index, cells));
            } else if (!value.hasValue() && arg && arg->optional && arg->type == ROOFLINE_TYPE_TEXT) {
                out.texts.emplace_back(arg->default_text ? arg->default_text : "");
            } else if (!value.hasValue()) {
                out.texts.emplace_back();
                d = arg && arg->optional ? arg->default_number : std::numeric_limits<double>::quiet_NaN();
            } else if (value >>= s) {
                out.texts.emplace_back(utf8(s));
            } else if (value >>= d) {
                out.texts.emplace_back();
            } else {
                wrong_type(f, index, "numbers and texts, one cell each");
            }
            out.numbers.push_back(d);
        }
        return out;
    }

    /// A range as a table argument's one text (roofline.h, ROOFLINE_TYPE_TABLE): rows joined by '\n', cells by
    /// '\t', a number in its shortest round-trip form (std::to_chars, no locale), an empty cell empty. A text cell holding a tab or
    /// a line break cannot be said so: Err:502, naming the argument and the cell.
    std::string table(const roofline_formula_info& f, size_t index, const Array& range) {
        std::string out;
        for (sal_Int32 r = 0; r < range.getLength(); ++r) {
            if (r) out += '\n';
            for (sal_Int32 c = 0; c < range[r].getLength(); ++c) {
                if (c) out += '\t';
                const css::uno::Any& cell = range[r][c];
                OUString s;
                double d = 0;
                if (!cell.hasValue()) continue;
                if (cell >>= s) {
                    const std::string text = utf8(s);
                    if (text.find_first_of("\t\r\n") != std::string::npos) {
                        const std::string msg = std::string(f.name) + ": argument '" + f.args[index]->name + "': row " +
                                                std::to_string(r + 1) + ", cell " + std::to_string(c + 1) +
                                                " holds a tab or a line break";
                        throw css::lang::IllegalArgumentException(fromUtf8(msg.c_str()), getXWeak(),
                                                                  static_cast<sal_Int16>(index));
                    }
                    out += text;
                } else if (cell >>= d) {
                    // The shortest text that reads back to the same double, with '.' whatever the office's locale
                    // (snprintf would write "6,0155" under a German LC_NUMERIC).
                    char buffer[32];
                    const std::to_chars_result written = std::to_chars(buffer, buffer + sizeof buffer, d);
                    out.append(buffer, written.ptr);
                } else {
                    wrong_type(f, index, "a range of numbers and texts");
                }
            }
        }
        return out;
    }

    /// A text where a number belongs, or the reverse: #VALUE!, as Calc itself shows for a required argument.
    [[noreturn]] void wrong_type(const roofline_formula_info& f, size_t index, const char* what) {
        std::string msg = std::string(f.name) + ": argument '" + f.args[index]->name + "' must be " + what;
        throw css::uno::RuntimeException(fromUtf8(msg.c_str()), getXWeak());
    }

    /// An optional number: its default when the cell left it out.
    double number(const roofline_formula_info& f, size_t index, const css::uno::Any& value) {
        if (!value.hasValue()) return f.args[index]->default_number;
        double d = 0;
        if (!(value >>= d)) wrong_type(f, index, "a number");
        return d;
    }

    /// An optional text, in UTF-8: its default when the call left it out, or when it names an empty
    /// cell. Calc passes an empty cell to an `any` argument as the number 0, which no text argument
    /// takes; so 0 there means "left out", and a sheet can keep an optional input in a cell that the
    /// user may leave empty. Any other number is the wrong type (#VALUE!).
    std::string text(const roofline_formula_info& f, size_t index, const css::uno::Any& value) {
        const char* fallback = f.args[index]->default_text ? f.args[index]->default_text : "";
        if (!value.hasValue()) return fallback;
        OUString s;
        if (value >>= s) return utf8(s);
        double d = 1;
        if ((value >>= d) && d == 0 && f.args[index]->optional) return fallback;
        wrong_type(f, index, "a text");
    }

    /// Whether a call gave a result. A valid question without an answer (NO_SOLUTION, RANGE) gives
    /// none: the method returns a void `any` and the cell shows #N/A. Other failures become exceptions
    /// that carry the library's message: an unknown model, GPU, format, profile or field a
    /// RuntimeException (#VALUE!), as does a failure of the library itself (NOMEM, INTERNAL); a bad
    /// argument an IllegalArgumentException (Err:502). ROOFLINE_WHY tells the reason as text.
    bool answered(const roofline_formula_info& f, int status) {
        switch (status) {
            case ROOFLINE_OK: return true;
            case ROOFLINE_ERROR_NO_SOLUTION:
            case ROOFLINE_ERROR_RANGE: return false;
            case ROOFLINE_ERROR_UNKNOWN_ID:
            case ROOFLINE_ERROR_NOMEM:
            case ROOFLINE_ERROR_INTERNAL: throw css::uno::RuntimeException(fromUtf8(roofline_errmsg()), getXWeak());
            default: break;
        }
        sal_Int16 position = -1;
        for (size_t i = 0; i < f.arg_count; ++i)
            if (std::strcmp(f.args[i]->name, roofline_errarg()) == 0) position = static_cast<sal_Int16>(i);
        throw css::lang::IllegalArgumentException(fromUtf8(roofline_errmsg()), getXWeak(), position);
    }

    /// An array result as Calc's matrix of numbers and texts; frees the C array.
    static Array toArray(roofline_array* result) {
        std::unique_ptr<roofline_array, void (*)(roofline_array*)> owned(result, roofline_array_free);
        const size_t rows = roofline_array_rows(result), cols = roofline_array_cols(result);
        Array out(static_cast<sal_Int32>(rows));
        css::uno::Sequence<css::uno::Any>* row = out.getArray();
        for (size_t r = 0; r < rows; ++r) {
            row[r].realloc(static_cast<sal_Int32>(cols));
            css::uno::Any* cell = row[r].getArray();
            for (size_t c = 0; c < cols; ++c) {
                if (roofline_array_is_text(result, r, c)) cell[c] <<= fromUtf8(roofline_array_text(result, r, c));
                else cell[c] <<= roofline_array_number(result, r, c);
            }
        }
        return out;
    }
};

css::uno::Reference<css::uno::XInterface> SAL_CALL create(const css::uno::Reference<css::uno::XComponentContext>&) {
    return static_cast<cppu::OWeakObject*>(new RooflineAddIn());
}

OUString SAL_CALL implementationName() { return OUString::createFromAscii(kServiceName); }

const cppu::ImplementationEntry kEntries[] = {
    {create, implementationName, serviceNames, cppu::createSingleComponentFactory, nullptr, 0},
    {nullptr, nullptr, nullptr, nullptr, nullptr, 0}};

}  // namespace

extern "C" SAL_DLLPUBLIC_EXPORT void* SAL_CALL component_getFactory(const char* implName, void* serviceManager,
                                                                    void* registryKey) {
    return cppu::component_getFactoryHelper(implName, serviceManager, registryKey, kEntries);
}

extern "C" SAL_DLLPUBLIC_EXPORT void SAL_CALL component_getImplementationEnvironment(const char** envTypeName,
                                                                                    uno_Environment**) {
    *envTypeName = CPPU_CURRENT_LANGUAGE_BINDING_NAME;
}
