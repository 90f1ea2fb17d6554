// Tensor-method vocabulary that Python (torch.Tensor) and C++ (at::Tensor) share: ATen gives both the
// same method names, with in-place forms ending in '_'.
#pragma once

#include <set>
#include <string_view>

namespace kgate {

// Tensor methods without side effects (x.contiguous(), x.view(-1), x.sum(), x.data_ptr()): not in
// place ("add_"), and not acting on the autograd graph or the stream ("backward", "record_stream").
// A value made through them and thrown away reads nothing that matters; one bound to a name stands
// for the tensor where that name is used.
inline bool pure_tensor_method(std::string_view m) {
  static const std::set<std::string_view> kEffects = {"backward", "record_stream", "register_hook", "retain_grad",
                                                      "set_data"};
  return !m.empty() && m.back() != '_' && !kEffects.count(m);
}

}  // namespace kgate
