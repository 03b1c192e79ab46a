/* SPDX-License-Identifier: MIT */
/*
 * Attribute I/O under the root prefix.  Reads are plain file reads;
 * writes go through the options' write hook (the kernel, or the tests'
 * fake of it) and only to attribute names the calling backend lists, so
 * that no path from outside is ever written as given.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform-private.h"

void
sf_platform_log(struct sf_platform *p, enum sf_platform_log_level level,
		const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!p->options.log)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p->options.log(p->options.log_data, level, buf);
}

void
sf_platform_path(const struct sf_platform *p, const char *rel, char *out,
		 size_t size)
{
	snprintf(out, size, "%s/%s", p->root, rel);
}

static void
attr_path(const struct sf_platform *p, const char *dir, const char *attr,
	  char *out, size_t size)
{
	snprintf(out, size, "%s/%s/%s", p->root, dir, attr);
}

int
sf_attr_read(const struct sf_platform *p, const char *dir, const char *attr,
	     char *out, size_t size)
{
	char path[PATH_MAX];
	attr_path(p, dir, attr, path, sizeof(path));

	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	size_t len = 0;
	for (;;) {
		ssize_t n = read(fd, out + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;
			close(fd);
			return err;
		}
		if (n == 0 || (len += (size_t)n) == size - 1)
			break;
	}
	close(fd);
	out[len] = '\0';
	while (len > 0 && (out[len - 1] == '\n' || out[len - 1] == ' '))
		out[--len] = '\0';
	return 0;
}

int
sf_attr_read_long(const struct sf_platform *p, const char *dir,
		  const char *attr, long *out)
{
	char buf[64];
	int err = sf_attr_read(p, dir, attr, buf, sizeof(buf));

	if (err)
		return err;
	char *end;
	errno = 0;
	long v = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != ' ' && *end != '\n'))
		return EINVAL;
	*out = v;
	return 0;
}

bool
sf_attr_exists(const struct sf_platform *p, const char *dir,
	       const char *attr)
{
	char path[PATH_MAX];

	attr_path(p, dir, attr, path, sizeof(path));
	return access(path, F_OK) == 0;
}

static int
write_real(const char *path, const char *value)
{
	/* O_TRUNC as a shell's ">" does: sysfs ignores it, plain files
	 * (a test tree) need it. */
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return errno;
	size_t len = strlen(value);
	ssize_t n;
	do {
		n = write(fd, value, len);
	} while (n < 0 && errno == EINTR);
	int err = n < 0 ? errno : (size_t)n != len ? EIO : 0;
	if (close(fd) < 0 && !err)
		err = errno;
	return err;
}

static bool
is_allowed(const char *const *allowed, const char *attr)
{
	for (; allowed && *allowed; allowed++)
		if (strcmp(*allowed, attr) == 0)
			return true;
	return false;
}

int
sf_attr_write(struct sf_platform *p, const char *dir, const char *attr,
	      const char *const *allowed, const char *value)
{
	char path[PATH_MAX];

	if (!is_allowed(allowed, attr) || strstr(attr, "..")) {
		/* A bug in stillframe, never the user's. */
		sf_platform_log(p, SF_PLATFORM_LOG_ERROR, "refusing to write "
				"%s/%s: not an attribute stillframe drives",
				dir, attr);
		return EPERM;
	}
	attr_path(p, dir, attr, path, sizeof(path));
	int err = p->options.write ?
		p->options.write(p->options.write_data, path, value) :
		write_real(path, value);
	if (err == EACCES || err == EPERM || err == EROFS)
		sf_platform_log(p, SF_PLATFORM_LOG_ERROR, "cannot write %s: %s; "
				"stillframe needs write access to it (install "
				"the udev rule 70-stillframe.rules and join "
				"its group, see stillframe(7))", path,
				strerror(err));
	else if (err == EAGAIN)	/* retried by the caller, which says so */
		sf_platform_log(p, SF_PLATFORM_LOG_DEBUG, "%s: busy (EAGAIN)",
				path);
	else if (err)
		sf_platform_log(p, SF_PLATFORM_LOG_ERROR, "cannot write \"%s\" "
				"to %s: %s", value, path, strerror(err));
	else
		sf_platform_log(p, SF_PLATFORM_LOG_DEBUG, "wrote \"%s\" to %s",
				value, path);
	return err;
}

const char *
sf_saved_get(const struct sf_saved *saved, const char *attr)
{
	for (int i = 0; i < saved->n; i++)
		if (strcmp(saved->attrs[i].attr, attr) == 0)
			return saved->attrs[i].value;
	return NULL;
}

void
sf_saved_set(struct sf_saved *saved, const char *attr, const char *value)
{
	struct sf_saved_attr *a = NULL;

	for (int i = 0; i < saved->n; i++)
		if (strcmp(saved->attrs[i].attr, attr) == 0)
			a = &saved->attrs[i];
	if (!a) {
		if (saved->n == SF_SAVED_MAX)
			return;
		a = &saved->attrs[saved->n++];
	}
	snprintf(a->attr, sizeof(a->attr), "%s", attr);
	snprintf(a->value, sizeof(a->value), "%s", value);
}

int
sf_saved_take(const struct sf_platform *p, struct sf_saved *saved,
	      const char *dir, const char *attr)
{
	char value[256];

	if (sf_saved_get(saved, attr))
		return 0;
	int err = sf_attr_read(p, dir, attr, value, sizeof(value));
	if (!err)
		sf_saved_set(saved, attr, value);
	return err;
}
