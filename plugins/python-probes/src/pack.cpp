// The python pack: measurements written in Python.
#include "python_probe.hpp"

#include <featurelab/pack.hpp>

FEATURELAB_PACK("python-probes", "0.1.0") { pack.add<featurelab::python_pack::PythonProbe>("python"); }
