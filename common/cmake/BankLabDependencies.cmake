# Finds BankLab's dependencies (Debian packages). A missing one stops configure
# with the apt-get line that installs it.

function(banklab_require_package package deb_package)
  find_package(${package} ${ARGN} QUIET)
  if(NOT ${package}_FOUND)
    message(FATAL_ERROR
      "BankLab needs ${package} (Debian package ${deb_package}). Install it with:\n"
      "  sudo apt-get install -y ${deb_package}\n"
      "or install everything BankLab needs with: sh common/scripts/setup.sh")
  endif()
endfunction()

banklab_require_package(doctest doctest-dev)
banklab_require_package(CLI11 libcli11-dev)
banklab_require_package(nlohmann_json nlohmann-json3-dev)
# Boost.Context is linked statically so that binaries also run on machines
# without the library (the GPU machines the kit is checked on have none).
set(Boost_USE_STATIC_LIBS ON)
banklab_require_package(Boost libboost-context-dev 1.74 CONFIG COMPONENTS context)
