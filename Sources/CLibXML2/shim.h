#ifndef DETOUR_CLIBXML2_SHIM_H
#define DETOUR_CLIBXML2_SHIM_H

// Debian builds libxml2 with ICU support, and its headers then include the system ICU, which
// clashes with the ICU that Foundation bundles in any module importing both. Nothing here needs
// libxml2's ICU types, so switch them off before any other libxml2 header is seen.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlmemory.h>

// Swift 6 refuses the global function pointer `xmlFree`; call it through a function instead.
static inline void clibxml2_free(void *pointer) { xmlFree(pointer); }

// The version of the libxml2 library linked at run time, e.g. "20914".
static inline const char *clibxml2_version(void) { return xmlParserVersion; }

// libxml2 prints some errors through a variadic callback, which Swift cannot define: swallow them
// here (every error also reaches the structured handler the reader installs).
static inline void clibxml2_ignore_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

// Never load an external entity or DTD, whatever a document asks for and whatever options are set.
static inline xmlParserInputPtr clibxml2_refuse_external_entity(
    const char *url, const char *id, xmlParserCtxtPtr context) {
    (void)url;
    (void)id;
    (void)context;
    return NULL;
}

// Installs the entity guard for the whole process, once, before any parsing.
static inline void clibxml2_install_guards(void) {
    xmlInitParser();
    xmlSetExternalEntityLoader(clibxml2_refuse_external_entity);
}

// Swallows generic errors on the calling thread: libxml2 keeps this handler per thread, so each
// thread that parses (a batch run's workers) must set it, or libxml2 prints to standard error.
static inline void clibxml2_quiet_generic_errors(void) {
    xmlSetGenericErrorFunc(NULL, clibxml2_ignore_generic_error);
}

#endif
