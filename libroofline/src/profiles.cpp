// The profiles: the built-in ones (profiles.json, embedded), those read from profile texts (calibrate.hpp), and those
// hosts add under names of their own. See operators.hpp (Profile, find_profile) and docs/accuracy.md, "Profiles".
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ascii.hpp"
#include "catalog_data.hpp"
#include "roofline/calibrate.hpp"
#include "roofline/error.hpp"
#include "roofline/operators.hpp"

namespace roofline {
namespace {

/// The parameters of kFitParameters that every profile of profiles.json has had since 0.8: required. Those added
/// since keep bound's values where a profile lacks them, and the cost of an all-to-all the all-reduce's (read first).
constexpr std::size_t kParametersOf08 = 5;
static_assert(kFitParameters[kParametersOf08 - 1].field == &Profile::allreduce_latency_us &&
              fit_index(&Profile::alltoall_latency_us) >= kParametersOf08);

/// A profile's parameters from its profiles.json entry: "fitted" (kFitParameters, by their JSON names) and "set"
/// (documented, not fitted).
Profile profile_from_json(const std::string& name, const nlohmann::json& fitted, const nlohmann::json& set) {
    Profile p;
    p.name = name;
    for (std::size_t i = 0; i < kFitParameters.size(); ++i) {
        const FitParameter& f = kFitParameters[i];
        const std::string key(f.json);
        if (i < kParametersOf08) p.*f.field = fitted.at(key).get<double>();
        else p.*f.field = fitted.value(key, f.field == &Profile::alltoall_latency_us ? p.allreduce_latency_us : p.*f.field);
    }
    for (const SetParameter& s : kSetParameters) p.*s.field = set.value(std::string(s.json), s.absent);
    p.overlap_expert_traffic = set.value("overlap_expert_traffic", false);
    return p;
}

struct Profiles {
    std::vector<Profile> all;
    Profiles() {
        Profile bound;
        bound.name = "bound";
        bound.overlap_expert_traffic = true;
        bound.switch_reduction = true;
        all.push_back(bound);
        const auto j = nlohmann::json::parse(detail::kProfilesJson);
        for (const auto& p : j.at("profiles")) {
            // Parameters set, not fitted (profiles.json: "set", each with its source), shared by the vendors' variants
            // unless a variant sets its own.
            const auto set = p.value("set", nlohmann::json::object());
            const std::string name = p.at("name").get<std::string>();
            Profile profile = profile_from_json(name, p.at("fitted"), set);
            const auto vendors = p.value("vendors", nlohmann::json::object());
            for (const auto& [vendor, v] : vendors.items()) {
                // A variant's own "set" parameters (measured on that vendor's GPUs) replace the profile's.
                auto vendor_set = set;
                const auto own = v.value("set", nlohmann::json::object());
                for (const auto& [key, value] : own.items())
                    if (key != "sources") vendor_set[key] = value;
                profile.vendors.emplace_back(ascii::lowered(vendor),
                                             std::make_shared<const Profile>(profile_from_json(name, v.at("fitted"), vendor_set)));
            }
            all.push_back(std::move(profile));
        }
    }
};

const Profiles& profiles() {
    static const Profiles p;
    return p;
}

}  // namespace

namespace {

/// The profiles read from profile texts (calibrate.hpp), by their text: each parsed once, kept for the life
/// of the process (a few hundred bytes each) so that a pointer find_profile() gave stays valid.
const Profile* text_profile(std::string_view text) {
    static std::mutex mutex;
    static std::map<std::string, std::unique_ptr<const Profile>, std::less<>> parsed;
    {
        std::lock_guard lock(mutex);
        if (auto it = parsed.find(text); it != parsed.end()) return it->second.get();
    }
    auto p = std::make_unique<const Profile>(profile_from_text(text));  // throws, naming the parameter
    std::lock_guard lock(mutex);
    auto [it, added] = parsed.try_emplace(std::string(text), std::move(p));
    return it->second.get();
}

}  // namespace

namespace {

/// The profiles hosts added under names of their own (add_named_profiles), by their name in lower case. An entry
/// replaced is kept (a pointer that find_profile() gave stays valid): a few hundred bytes each.
struct NamedProfiles {
    std::mutex mutex;
    std::map<std::string, const Profile*, std::less<>> by_name;
    std::vector<std::unique_ptr<const Profile>> kept;
};
NamedProfiles& named_profiles() {
    static NamedProfiles registry;
    return registry;
}


}  // namespace

const Profile* find_profile(std::string_view name) {
    if (is_profile_text(name)) return text_profile(name);
    const auto& all = profiles().all;
    for (const Profile& p : all)  // names in lower case, as a host most often writes them: compared whole first
        if (p.name == name) return &p;
    for (const Profile& p : all)
        if (ascii::equals_lowered(p.name, name)) return &p;
    NamedProfiles& named = named_profiles();
    std::lock_guard lock(named.mutex);
    if (named.by_name.empty()) return nullptr;
    const auto it = named.by_name.find(ascii::lowered(name));
    return it == named.by_name.end() ? nullptr : it->second;
}

std::vector<std::string> profile_names() {
    std::vector<std::string> names;
    for (const Profile& p : profiles().all) names.push_back(p.name);
    NamedProfiles& named = named_profiles();
    std::lock_guard lock(named.mutex);
    for (const auto& [id, p] : named.by_name) names.push_back(p->name);
    return names;
}

std::size_t add_named_profiles(std::string_view catalog_json, const std::string& argument, bool add) {
    const auto j = nlohmann::json::parse(catalog_json, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("profiles")) return 0;  // add_catalog() says what is wrong
    auto refuse = [&](std::size_t i, std::string reason) -> Error {
        return Error::of_argument(Status::invalid_argument, "", argument, fmt::format("profiles[{}]: {}", i, reason));
    };
    if (!j["profiles"].is_array()) throw Error::of_argument(Status::invalid_argument, "", argument, "'profiles' is not a list");
    std::vector<std::unique_ptr<const Profile>> read;
    for (std::size_t i = 0; i < j["profiles"].size(); ++i) {
        const auto& e = j["profiles"][i];
        if (!e.is_object() || !e.contains("id") || !e["id"].is_string()) throw refuse(i, "has no text 'id'");
        if (!e.contains("profile") || !e["profile"].is_string()) throw refuse(i, "has no text 'profile' (a profile text)");
        const std::string id = e["id"].get<std::string>();
        if (id.empty() || id.size() > 100) throw refuse(i, "'id' must be 1 to 100 characters");
        if (is_profile_text(id)) throw refuse(i, "'id' is a name, not a profile text");
        for (const Profile& p : profiles().all)
            if (ascii::equals_lowered(p.name, ascii::lowered(id))) throw refuse(i, fmt::format("'{}' is a built-in profile", p.name));
        Profile p;
        try {
            p = profile_from_text(e["profile"].get<std::string>());
        } catch (const Error& err) {
            throw refuse(i, fmt::format("'profile': {}", err.reason()));
        }
        p.name = id;
        read.push_back(std::make_unique<const Profile>(std::move(p)));
    }
    if (!add) return read.size();
    NamedProfiles& named = named_profiles();
    std::lock_guard lock(named.mutex);
    for (auto& p : read) {
        named.by_name[ascii::lowered(p->name)] = p.get();
        named.kept.push_back(std::move(p));
    }
    return read.size();
}

const Profile& Profile::for_vendor(std::string_view vendor) const noexcept {
    for (const auto& [name, variant] : vendors)
        if (ascii::equals_lowered(name, vendor)) return *variant;  // names lower-cased when read
    return *this;
}

}  // namespace roofline
