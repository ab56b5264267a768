# Copies the non-code files the site's pages link to (LIST, one repository
# path a line) from SOURCE to DEST, keeping their paths.
file(STRINGS "${LIST}" files)
foreach(file IN LISTS files)
  get_filename_component(dir "${DEST}/${file}" DIRECTORY)
  file(MAKE_DIRECTORY "${dir}")
  file(COPY_FILE "${SOURCE}/${file}" "${DEST}/${file}")
endforeach()
