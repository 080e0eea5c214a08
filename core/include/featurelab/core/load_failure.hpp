// Why a plugin library was refused: the loader's outcome (pack_loader.cpp), which `featurelab plugins doctor` and
// the catalog's problems name beside the message and its fix.
#pragma once

namespace featurelab {

enum class LoadFailure {
  None,
  NotFound,
  UnsafePermissions,
  NotSharedLibrary,
  MissingEntryPoint,
  WrongAbi,
  FingerprintMismatch,
  RegistrationFailed,
  InterfaceMismatch,
  Changed,        // other bytes than the build expected
  AmbiguousPack,  // the catalog's: two libraries in one directory declare the same pack
};

const char* to_string(LoadFailure failure);

}  // namespace featurelab
