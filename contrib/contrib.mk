# SPDX-License-Identifier: Apache-2.0
# Operators' files: the systemd units (installed), the Kubernetes manifests
# and the HAProxy configuration (shipped in the tarball, checked by
# tests/deploy/), and `make deb-check` for the Debian package (debian/).

# The unit names the installed binary: @bindir@ is filled in at make time
# (configure leaves ${exec_prefix} in it).
# The socket unit is installed as it is.
if PW_SYSTEMD
systemdsystemunit_DATA = contrib/systemd/pyward.service \
	contrib/systemd/pyward.socket
endif
contrib/systemd/pyward.service: $(srcdir)/contrib/systemd/pyward.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) contrib/systemd && \
	sed -e 's|@''bindir@|$(bindir)|g' $(srcdir)/contrib/systemd/pyward.service.in >$@.tmp && \
	mv $@.tmp $@
CLEANFILES += contrib/systemd/pyward.service
check_SCRIPTS += contrib/systemd/pyward.service
# distcheck installs under its own prefix, not in the host's unit directory.
AM_DISTCHECK_CONFIGURE_FLAGS = \
	--with-systemdsystemunitdir='$${libdir}/systemd/system'

EXTRA_DIST += \
	contrib/systemd/pyward.service.in \
	contrib/systemd/pyward.socket \
	contrib/kubernetes/statefulset.yaml \
	contrib/kubernetes/service.yaml \
	contrib/kubernetes/router.yaml \
	contrib/kubernetes/haproxy.cfg \
	contrib/kubernetes/hpa.yaml \
	contrib/kubernetes/pdb.yaml \
	contrib/kubernetes/kustomization.yaml \
	contrib/kubernetes/Containerfile \
	contrib/kubernetes-baseline/kustomization.yaml \
	contrib/kubernetes-baseline/securitycontext.yaml \
	contrib/kubernetes-baseline/pyward-seccomp.json \
	contrib/haproxy/haproxy.cfg \
	$(NULL)

# The unit, the manifests and the HAProxy configuration, checked; and
# `make install` of the build, inside its prefix.
TESTS += tests/deploy/run.sh tests/deploy/install.sh
EXTRA_DIST += tests/deploy/run.sh tests/deploy/check_manifests.py \
	tests/deploy/install.sh

# `make deb-check`: the Debian package built from the tarball, linted,
# installed with dpkg -i, pyward doctor run from it, then purged (root;
# minutes, so not part of make check).  .ci/run may run it.
EXTRA_DIST += tests/deb/deb-check.sh
deb-check: dist
	top_srcdir='$(abs_top_srcdir)' PYTHON3='$(PYTHON3)' \
	$(SHELL) $(srcdir)/tests/deb/deb-check.sh \
		'$(abs_top_builddir)/$(distdir).tar.xz' '$(abs_top_srcdir)/debian' \
		'$(abs_top_builddir)/deb-work'
clean-local: clean-deb-work
clean-deb-work:
	rm -rf deb-work
.PHONY: deb-check clean-deb-work

# The HAProxy tests, failover and session routing (haproxy from Debian,
# node and the MCP SDKs); and the Kubernetes router finding its pods by
# DNS (haproxy, dnsmasq-base and node).
TESTS += tests/haproxy/run.sh tests/haproxy/dns.sh
EXTRA_DIST += tests/haproxy/run.sh tests/haproxy/cluster.mjs \
	tests/haproxy/failover.mjs tests/haproxy/sessions.mjs \
	tests/haproxy/dns.sh tests/haproxy/dns.mjs
clean-local: clean-haproxy-work
clean-haproxy-work:
	rm -rf tests/haproxy-work
.PHONY: clean-haproxy-work
