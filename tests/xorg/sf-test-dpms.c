/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE at the hardware boundary: an Xorg module for the tests
 * only, never installed.
 *
 * The dummy driver's DPMS hooks (xf86 output and CRTC) do nothing and
 * show nothing, and the server has no DPMS extension here, so a test
 * cannot see whether stillframe blanked the display.  Loaded next to
 * libstillframe.so (Load "sftestdpms"), this module puts a recording
 * copy of every xf86 output's and CRTC's function table in place: each
 * DPMS call is written to the server log as
 *
 *	sf-test-dpms: output DUMMY0 dpms 3
 *	sf-test-dpms: crtc 0 dpms 3
 *
 * and then passed on to the driver.
 *
 * The dummy driver's outputs also never come and go, so the same copy
 * stands in for a cable pulled out: when $SF_TEST_UNPLUGGED names a
 * file, an output whose name is a line of that file is reported
 * disconnected at the next RandR probe (any xrandr query), as a real
 * driver would after a hotplug event.  The tests light a second dummy
 * output at start with its Monitor section's Option "Enable"; once the
 * initial configuration has used it, the double forgets that option,
 * which would otherwise make RandR call the output connected whatever
 * detect says.
 *
 * Real drivers tell a panel from a monitor with RandR's ConnectorType
 * property; the dummy driver sets none.  $SF_TEST_CONNECTOR_TYPES, as
 * "DUMMY0=Panel DUMMY1=HDMI", gives outputs one, as such a driver
 * would.
 *
 * A fault, for tests/xorg/test-xorg-faults.sh: with $SF_TEST_SWITCH_FAILS
 * set, every mode set after the server's start fails (logged
 * "sf-test-dpms: crtc N mode set fails"), as a commit the hardware
 * refuses.  Everything else is the driver's.

 */
#ifdef HAVE_XORG_CONFIG_H
#include <xorg-config.h>
#endif
#include <xorg-server.h>

#include <xf86.h>
#include <xf86Crtc.h>
#include <xf86Module.h>
#include <randrstr.h>
#include <X11/Xatom.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SF_TEST_DPMS_MAX 32

/* The driver's tables, and ours, per output and CRTC: drivers may give
 * each its own. */
static struct {
	xf86OutputPtr output;
	const xf86OutputFuncsRec *driver;
	xf86OutputFuncsRec recording;
} outputs[SF_TEST_DPMS_MAX];
static struct {
	xf86CrtcPtr crtc;
	const xf86CrtcFuncsRec *driver;
	xf86CrtcFuncsRec recording;
} crtcs[SF_TEST_DPMS_MAX];
static int n_outputs, n_crtcs;

static void
recording_output_dpms(xf86OutputPtr output, int mode)
{
	for (int i = 0; i < n_outputs; i++) {
		if (outputs[i].output != output)
			continue;
		LogMessageVerb(X_INFO, 0, "sf-test-dpms: output %s dpms %d\n",
			       output->name, mode);
		if (outputs[i].driver->dpms)
			outputs[i].driver->dpms(output, mode);
		return;
	}
}

static Bool
listed_unplugged(const char *name)
{
	const char *path = getenv("SF_TEST_UNPLUGGED");
	char line[64];
	Bool listed = FALSE;
	FILE *f;

	if (!path || !(f = fopen(path, "r")))
		return FALSE;
	while (!listed && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		listed = strcmp(line, name) == 0;
	}
	fclose(f);
	return listed;
}

static xf86OutputStatus
unpluggable_output_detect(xf86OutputPtr output)
{
	for (int i = 0; i < n_outputs; i++) {
		if (outputs[i].output != output)
			continue;
		if (listed_unplugged(output->name)) {
			LogMessageVerb(X_INFO, 0, "sf-test-dpms: output %s "
				       "unplugged (SF_TEST_UNPLUGGED)\n",
				       output->name);
			return XF86OutputStatusDisconnected;
		}
		return outputs[i].driver->detect(output);
	}
	return XF86OutputStatusUnknown;
}

static void
recording_crtc_dpms(xf86CrtcPtr crtc, int mode)
{
	for (int i = 0; i < n_crtcs; i++) {
		if (crtcs[i].crtc != crtc)
			continue;
		LogMessageVerb(X_INFO, 0, "sf-test-dpms: crtc %d dpms %d\n",
			       i, mode);
		if (crtcs[i].driver->dpms)
			crtcs[i].driver->dpms(crtc, mode);
		return;
	}
}

static void
wrap_output(xf86OutputPtr output)
{
	for (int i = 0; i < n_outputs; i++)
		if (outputs[i].output == output)
			return;	/* a later server generation */
	if (n_outputs == SF_TEST_DPMS_MAX)
		return;
	outputs[n_outputs].output = output;
	outputs[n_outputs].driver = output->funcs;
	outputs[n_outputs].recording = *output->funcs;
	outputs[n_outputs].recording.dpms = recording_output_dpms;
	for (OptionInfoPtr opt = output->options; opt && opt->name; opt++)
		if (xf86nameCompare(opt->name, "Enable") == 0)
			opt->found = FALSE;
	if (output->funcs->detect)
		outputs[n_outputs].recording.detect = unpluggable_output_detect;
	output->funcs = &outputs[n_outputs].recording;
	n_outputs++;
}

static Bool
failing_set_mode_major(xf86CrtcPtr crtc, DisplayModePtr mode,
		       Rotation rotation, int x, int y)
{
	(void)mode;
	(void)rotation;
	(void)x;
	(void)y;
	for (int i = 0; i < n_crtcs; i++)
		if (crtcs[i].crtc == crtc)
			LogMessageVerb(X_INFO, 0, "sf-test-dpms: crtc %d mode "
				       "set fails (SF_TEST_SWITCH_FAILS)\n", i);
	return FALSE;
}

static void
wrap_crtc(xf86CrtcPtr crtc)
{
	for (int i = 0; i < n_crtcs; i++)
		if (crtcs[i].crtc == crtc)
			return;
	if (n_crtcs == SF_TEST_DPMS_MAX)
		return;
	crtcs[n_crtcs].crtc = crtc;
	crtcs[n_crtcs].driver = crtc->funcs;
	crtcs[n_crtcs].recording = *crtc->funcs;
	crtcs[n_crtcs].recording.dpms = recording_crtc_dpms;
	if (getenv("SF_TEST_SWITCH_FAILS"))
		crtcs[n_crtcs].recording.set_mode_major =
			failing_set_mode_major;
	crtc->funcs = &crtcs[n_crtcs].recording;
	n_crtcs++;
}

static void
set_connector_types(xf86OutputPtr output)
{
	const char *spec = getenv("SF_TEST_CONNECTOR_TYPES");
	size_t len = strlen(output->name);
	static const char property[] = "ConnectorType";

	for (const char *p = spec; p && *p;) {
		size_t item = strcspn(p, " ");
		if (item > len + 1 && p[len] == '=' &&
		    strncmp(p, output->name, len) == 0 && output->randr_output) {
			Atom type = MakeAtom(p + len + 1, item - len - 1, TRUE);
			Atom name = MakeAtom(property, sizeof(property) - 1,
					     TRUE);
			RRChangeOutputProperty(output->randr_output, name,
					       XA_ATOM, 32, PropModeReplace, 1,
					       &type, FALSE, FALSE);
			LogMessageVerb(X_INFO, 0, "sf-test-dpms: output %s "
				       "ConnectorType %.*s\n", output->name,
				       (int)(item - len - 1), p + len + 1);
		}
		p += item;
		while (*p == ' ')
			p++;
	}
}

/* Runs every generation, after the drivers made their outputs. */
static void
sf_test_dpms_init(void)
{
	if (xf86CrtcConfigPrivateIndex == -1) {
		LogMessageVerb(X_WARNING, 0, "sf-test-dpms: no xf86 CRTC "
			       "layer; nothing is recorded\n");
		return;
	}
	for (int s = 0; s < screenInfo.numScreens; s++) {
		ScrnInfoPtr scrn = xf86ScreenToScrn(screenInfo.screens[s]);
		if (!scrn->privates[xf86CrtcConfigPrivateIndex].ptr)
			continue;
		xf86CrtcConfigPtr config = XF86_CRTC_CONFIG_PTR(scrn);
		for (int i = 0; i < config->num_output; i++) {
			wrap_output(config->output[i]);
			set_connector_types(config->output[i]);
		}
		for (int i = 0; i < config->num_crtc; i++)
			wrap_crtc(config->crtc[i]);
	}
	LogMessageVerb(X_INFO, 0, "sf-test-dpms: recording DPMS of %d "
		       "outputs and %d CRTCs (TEST DOUBLE)\n", n_outputs,
		       n_crtcs);
}

static const ExtensionModule sf_test_dpms_extension[] = {
	{ .initFunc = sf_test_dpms_init, .name = "SF-TEST-DPMS" },
};

static void *
sf_test_dpms_setup(void *module, void *opts, int *errmaj, int *errmin)
{
	(void)opts;
	(void)errmaj;
	(void)errmin;
	LoadExtensionList(sf_test_dpms_extension, 1, FALSE);
	return module;
}

static XF86ModuleVersionInfo sf_test_dpms_version = {
	.modname = "sftestdpms",
	.vendor = "stillframe tests",
	._modinfo1_ = MODINFOSTRING1,
	._modinfo2_ = MODINFOSTRING2,
	.xf86version = XORG_VERSION_CURRENT,
	.majorversion = 0,
	.minorversion = 1,
	.patchlevel = 0,
	.abiclass = ABI_CLASS_EXTENSION,
	.abiversion = ABI_EXTENSION_VERSION,
	.moduleclass = MOD_CLASS_NONE,
};

_X_EXPORT XF86ModuleData sftestdpmsModuleData = {
	.vers = &sf_test_dpms_version,
	.setup = sf_test_dpms_setup,
};
