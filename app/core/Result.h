// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <type_traits>
#include <utility>
#include <variant>

namespace core {

// The two ways to say which side a value is, when its type alone does not: `return
// core::err("no such file");` in a function returning Result<bool, QString>.
template<class T>
struct Ok
{
    T value;
};
template<class E>
struct Err
{
    E error;
};
template<class T>
Ok<std::decay_t<T>> ok(T &&value)
{
    return {std::forward<T>(value)};
}
template<class E>
Err<std::decay_t<E>> err(E &&error)
{
    return {std::forward<E>(error)};
}

// A value or the error that prevented it; std::expected arrives with C++23, this is its
// small subset we need. A value of exactly T or E says which side it is; one that would
// merely convert to both (a string literal, for Result<bool, QString>: the pointer converts to
// true) does not compile: say ok(...) or err(...).
template<class T, class E>
class Result
{
    template<int>
    struct Neither
    {
    };

public:
    // When T and E are one type, neither constructor takes it: say ok(...) or err(...).
    Result(std::conditional_t<std::is_same_v<T, E>, Neither<0>, T> value)
        : m_v(std::in_place_index<0>, std::move(value))
    {}
    Result(std::conditional_t<std::is_same_v<T, E>, Neither<1>, E> error)
        : m_v(std::in_place_index<1>, std::move(error))
    {}
    template<class U>
    requires std::is_convertible_v<U, T> Result(Ok<U> value)
        : m_v(std::in_place_index<0>, std::move(value.value))
    {}
    template<class U>
    requires std::is_convertible_v<U, E> Result(Err<U> error)
        : m_v(std::in_place_index<1>, std::move(error.error))
    {}
    template<class U>
    static constexpr bool Ambiguous =
        !std::is_same_v<
            std::remove_cvref_t<U>,
            T> && !std::is_same_v<std::remove_cvref_t<U>, E> && std::is_convertible_v<U, T> && std::is_convertible_v<U, E>;
    template<class U>
    requires Ambiguous<U> Result(U &&)
    = delete;

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }
    const T &value() const & { return std::get<0>(m_v); }
    T &value() & { return std::get<0>(m_v); }
    T &&value() && { return std::get<0>(std::move(m_v)); }
    const T *operator->() const { return &std::get<0>(m_v); }
    const T &operator*() const & { return std::get<0>(m_v); }
    const E &error() const { return std::get<1>(m_v); }

private:
    std::variant<T, E> m_v;
};

} // namespace core
