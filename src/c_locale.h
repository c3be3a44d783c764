/* Numbers in the "C" locale, whatever locale the program has set.
 *
 * Settings are written, and verbose lines printed, with a decimal point: a
 * program that calls setlocale (a decimal comma in de_DE, fr_FR, ...) must
 * neither have its settings refused nor see a model it cannot paste back
 * into INTERGATHER_NET_MODEL.  The locale is switched for the calling
 * thread only (uselocale), so other threads keep theirs. */
#ifndef IG_C_LOCALE_H
#define IG_C_LOCALE_H

#include <stdarg.h>
#include <stddef.h>

/* strtod, reading a decimal point. */
double ig_strtod_c(const char *text, char **end);

/* vsnprintf and snprintf, writing a decimal point. */
int ig_vsnprintf_c(char *buf, size_t size, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
int ig_snprintf_c(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
