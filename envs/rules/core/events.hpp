// The event log of a native fight (State.events in Python): each Fight::log(type, rule)
// with its fields is one Event here, its fields in the order the dicts show
// them, values as the few kinds the log holds (ids and numbers, a name, a hex, a roll
// record). Python builds the event dicts from these records only when they are read
// (bind_fight.cpp, State.events in envs/rules/state.py): the keys in a fixed order, the values' types
// fixed, so that a log's hash is a lock (tests/core/test_engine_lock.py).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hexgrid.hpp"

namespace hexdojo {

// A §1.3 roll as the log records it (State.roll): what, basic, terms (label, value), risk,
// dice, sides, result; numbers in half points, written as state.half writes them.
struct RollRecord {
    std::string what;
    int basic = 0;
    std::vector<std::pair<std::string, int>> terms;
    int risk = 0;
    std::vector<int> dice;
    int sides = 0;
    int result = 0;
    bool self_injury = false;  // {"what": "self-injury", "result": damage / 2}: no roll made
};

// One value of an event field.
enum class V : std::uint8_t {
    kInt,    // a  (an int: fighter index, AP, levels)
    kHalf,   // a  half points, as state.half writes them (9 or 9.5)
    kDiv2,   // a  half points divided by 2 as Python's "/ 2" (always a float)
    kBool,   // a
    kNone,   // None
    kStr,    // s
    kHex,    // a, b as a list [q, r]
    kRoll,   // a: index of the event's roll
    kNames,  // list: fighter indices, written as their names
};

struct Field {
    const char* key = "";
    V kind = V::kNone;
    int a = 0, b = 0;
    std::string s;
    std::vector<int> list;
};

struct Event {
    const char* type = "";
    int turn = 0;
    std::string rule;
    std::vector<Field> fields;
    std::vector<RollRecord> rolls;
    bool sink = false;  // a record nobody keeps (Fight::record_events off): fields are dropped

    Event& i(const char* k, int v) { return add(k, V::kInt, v); }
    Event& half(const char* k, int v) { return add(k, V::kHalf, v); }
    Event& div2(const char* k, int v) { return add(k, V::kDiv2, v); }
    Event& flag(const char* k, bool v) { return add(k, V::kBool, v ? 1 : 0); }
    Event& none(const char* k) { return add(k, V::kNone, 0); }
    Event& str(const char* k, std::string v) {
        if (sink) return *this;
        add(k, V::kStr, 0);
        fields.back().s = std::move(v);
        return *this;
    }
    // A name, or None for kNone (the names table of an id).
    Event& name(const char* k, const std::vector<std::string>& names, int id) {
        if (id < 0) return none(k);
        return str(k, names[static_cast<std::size_t>(id)]);
    }
    Event& opt_int(const char* k, int v) { return v < 0 ? none(k) : i(k, v); }
    Event& hex(const char* k, Hex h) {
        if (sink) return *this;
        add(k, V::kHex, h.q);
        fields.back().b = h.r;
        return *this;
    }
    Event& roll(const char* k, RollRecord r) {
        if (sink) return *this;
        add(k, V::kRoll, static_cast<int>(rolls.size()));
        rolls.push_back(std::move(r));
        return *this;
    }
    Event& names(const char* k, std::vector<int> who) {
        if (sink) return *this;
        add(k, V::kNames, 0);
        fields.back().list = std::move(who);
        return *this;
    }

private:
    Event& add(const char* k, V kind, int a) {
        if (sink) return *this;
        Field f;
        f.key = k;
        f.kind = kind;
        f.a = a;
        fields.push_back(std::move(f));
        return *this;
    }
};

// A fight's event log, cheap to copy: the events up to the last copy lie in immutable chunks
// shared by the copies (a chain, newest first); each copy appends to its own tail. Copying
// first freezes the tail into a chunk, so a clone costs a pointer, not the log.
class EventLog {
public:
    EventLog() = default;
    EventLog(const EventLog& o) { *this = o; }
    EventLog& operator=(const EventLog& o) {
        if (this == &o) return *this;
        o.freeze();
        chunks_ = o.chunks_;
        frozen_ = o.frozen_;
        tail_.clear();
        return *this;
    }
    EventLog(EventLog&&) noexcept = default;
    EventLog& operator=(EventLog&&) noexcept = default;

    std::size_t size() const { return frozen_ + tail_.size(); }
    bool empty() const { return size() == 0; }
    Event& push() { return tail_.emplace_back(); }

    // The events from start on, oldest first.
    std::vector<const Event*> from(std::size_t start) const {
        std::vector<const Event*> out;
        if (start >= size()) return out;
        out.resize(size() - start);
        std::size_t k = size();
        for (auto it = tail_.rbegin(); it != tail_.rend() && k > start; ++it) out[--k - start] = &*it;
        for (const Chunk* c = chunks_.get(); c != nullptr && k > start; c = c->prev.get()) {
            for (auto it = c->events.rbegin(); it != c->events.rend() && k > start; ++it) out[--k - start] = &*it;
        }
        return out;
    }

private:
    struct Chunk {
        std::shared_ptr<const Chunk> prev;
        std::vector<Event> events;
    };
    void freeze() const {
        if (tail_.empty()) return;
        auto c = std::make_shared<Chunk>();
        c->prev = std::move(chunks_);
        c->events = std::move(tail_);
        tail_.clear();
        frozen_ += c->events.size();
        chunks_ = std::move(c);
    }
    mutable std::shared_ptr<const Chunk> chunks_;
    mutable std::size_t frozen_ = 0;
    mutable std::vector<Event> tail_;
};

}  // namespace hexdojo
