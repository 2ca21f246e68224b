#include "klampt/dynamics/workspace.h"

namespace klampt {

void DynamicsWorkspace::reserve(int n) {
  if ((int)axis.size() >= n) return;
  for (auto* v : {&axis, &origin, &com, &angularVelocity, &originVelocity, &comVelocity, &vecA, &vecB, &vecC, &vecD})
    v->resize(n);
  inertia.resize(n);
  composite.resize(n);
  chain.resize(n);
  for (auto* m : {&matA, &matB}) m->resize((size_t)n * n);
  for (auto* v : {&vec1, &vec2}) v->resize(n);
}

}  // namespace klampt
