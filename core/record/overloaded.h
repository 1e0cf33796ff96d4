#pragma once
// One visitor from several lambdas, for std::visit over a per-kind variant (plan parameters,
// record::LaneExtras): one overload per alternative.

namespace lb::record {

template <class... Fn>
struct Overloaded : Fn... {
  using Fn::operator()...;
};
// clang 14 does not deduce an aggregate's template arguments by itself.
template <class... Fn>
Overloaded(Fn...) -> Overloaded<Fn...>;

}  // namespace lb::record
