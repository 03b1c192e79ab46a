/* SPDX-License-Identifier: MIT */
/*
 * The module as the Xorg loader sees it: version data, and a Setup that
 * runs once per server process.  Setup reads the Option lines of
 * SubSection "stillframe" of Section "Module" through the shared config
 * table and registers the extension, whose init then runs every server
 * generation (extension.c).
 */
#include <stdio.h>

#include <xorg-server.h>
#include <xf86.h>
#include <xf86Module.h>
#include <xf86Opt.h>
#include <extension.h>

#include "sf-xorg.h"
#include "stillframe-x.h"

static struct sf_config module_config;
static bool module_config_read;

const struct sf_config *
sf_xorg_module_config(void)
{
	if (!module_config_read) {
		sf_config_init_defaults(&module_config);
		module_config_read = true;
	}
	return &module_config;
}

/* A bad value is reported with its key, value and range, and the default
 * kept: the server starts either way. */
static void
read_options(XF86OptionPtr options)
{
	if (!module_config_read) {
		sf_config_init_defaults(&module_config);
		module_config_read = true;
	}
	for (XF86OptionPtr o = options; o; o = xf86NextOption(o)) {
		const char *name = xf86OptionName(o);
		const char *value = xf86OptionValue(o);
		char err[512] = "";

		/* An Option without a value is a boolean switched on. */
		if (!value || !*value)
			value = "true";
		enum sf_config_status st = sf_config_set(&module_config,
							 SF_CONFIG_NS_XORG,
							 name, value, err,
							 sizeof(err));
		xf86MarkOptionUsed(o);
		if (st != SF_CONFIG_OK)
			LogMessageVerb(X_WARNING, 0,
				       "stillframe: config: %s\n", err);
		else
			LogMessageVerb(X_CONFIG, 1,
				       "stillframe: Option \"%s\" \"%s\"\n",
				       name, value);
	}
}

static const ExtensionModule extensions[] = {
	{ sf_xorg_extension_init, STILLFRAME_X_NAME, NULL },
};

static void *
stillframe_setup(void *module, void *options, int *errmaj, int *errmin)
{
	static bool done;
	(void)errmin;

	/* Setup runs once per Load line, and a SubSection "stillframe" is
	 * a Load line of its own: with both (Load "stillframe" and its
	 * SubSection) the second one only adds its options.  The
	 * extension is registered once. */
	if (done) {
		read_options(options);
		LogMessageVerb(X_INFO, 0,
			       "stillframe: loaded again (a Load line and a "
			       "SubSection, or two Load lines): its options "
			       "are added, the module stays loaded once\n");
		if (errmaj)
			*errmaj = LDR_ONCEONLY;
		return NULL;
	}
	done = true;
	read_options(options);
	LoadExtensionList(extensions, 1, FALSE);
	return module;
}

static XF86ModuleVersionInfo version_info = {
	.modname = "stillframe",
	.vendor = "stillframe",
	._modinfo1_ = MODINFOSTRING1,
	._modinfo2_ = MODINFOSTRING2,
	.xf86version = XORG_VERSION_CURRENT,
	.majorversion = STILLFRAME_X_MAJOR_VERSION,
	.minorversion = STILLFRAME_X_MINOR_VERSION,
	.patchlevel = 0,
	.abiclass = ABI_CLASS_EXTENSION,
	.abiversion = ABI_EXTENSION_VERSION,
	.moduleclass = MOD_CLASS_EXTENSION,
	.checksum = { 0, 0, 0, 0 },
};

_X_EXPORT XF86ModuleData stillframeModuleData = {
	.vers = &version_info,
	.setup = stillframe_setup,
	.teardown = NULL,
};
