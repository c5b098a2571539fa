#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every file a comment or a document names exists in the tree (one TAP
# point per file that names any).  Looked at: the whole text of documents
# (README, *.md, man pages, rules/*.json) and the comments of code (C and
# JavaScript /* */ and //, shell, Python, make and m4 #, dnl).  A name is
# a path relative to the top that starts with one of the tree's top-level
# directories (src/sandbox/sandbox.c, tests/cases/, doc/pyward.1), or an
# upper-case Markdown file name alone, which must exist somewhere.  An
# upper-case segment is a placeholder (tests/cases/CODE.py: tests/cases/
# must exist).  Generated files are allowed by name below.
. "${top_srcdir:-.}/tests/lib.sh"
lint_gate

cd "$top_srcdir" || exit 1
if ! command -v git >/dev/null 2>&1 ||
    ! git ls-files --error-unmatch configure.ac >/dev/null 2>&1; then
    echo "1..0 # SKIP not a git checkout"
    exit 0
fi
if ! command -v perl >/dev/null 2>&1; then
    echo "1..0 # SKIP perl not installed"
    exit 0
fi

# Files made by the build, named in comments but never tracked.
generated='config.h tests/lint/tidy-cache/ src/sandbox/interp/guard-modules.inc tests/mcp-client-work/'

work=$(tmpdir_new)
trap 'rm -rf "$work"' EXIT
git ls-files >"$work/tracked"
grep -E '\.(c|h|py|sh|mjs|mk|md|am|ac|json|yaml|[15])$|(^|/)README$|^\.ci/run$' \
    "$work/tracked" >"$work/scan"

# Prints "FILE<TAB>" for each file that names a path, then
# "FILE<TAB>LINE: PATH" for each name that is missing.
perl - "$work/tracked" "$work/scan" "$generated" >"$work/refs" <<'PERL' ||
use strict;
use warnings;

my ($tracked, $scan, $generated) = @ARGV;
my %have = map { $_ => 1 } split ' ', $generated;
my (%base, %top);
open my $t, '<', $tracked or die "$tracked: $!";
while (my $p = <$t>) {
    chomp $p;
    $have{$p} = 1;
    (my $b = $p) =~ s{.*/}{};
    $base{$b} = 1;
    $top{$1} = 1 if $p =~ m{^([^/]+)/};
    my $d = $p;
    $have{"$d/"} = $have{$d} = 1 while $d =~ s{/[^/]*$}{};
}
my $tops = join '|', map { quotemeta } sort keys %top;
my $ext = 'c|h|py|sh|mjs|mk|md|json|am|ac|in|supp|yaml|out|args|txt|1|5';
my $path = qr{(?<![\w./~\$\@%-])((?:$tops)/(?:[\w.+-]+/)*(?:[\w.+-]+\.(?:$ext))?)(?![\w/*<>{}\[-])(?!\.\w)};
my $md = qr{(?<![\w./-])([A-Z][A-Z0-9_-]*\.md)\b};

sub missing {
    my ($p) = @_;
    return 0 if $have{$p};
    # Upper-case segments (but not Markdown names) are placeholders.
    $p =~ s{/[A-Z][A-Z_]*(?:\.(?!md\b)\w+)?(?:/.*)?$}{/} or return 1;
    return !$have{$p};
}

# The text of LINE that is comment or document.
my $in_c = 0;
sub text_of {
    my ($kind, $line) = @_;
    return $line if $kind eq 'doc';
    if ($kind eq 'c') {
        my ($text, $rest) = ('', $line);
        while (length $rest) {
            if ($in_c) {
                if ($rest =~ s{^(.*?)\*/}{}s) { $text .= "$1 "; $in_c = 0 }
                else { $text .= $rest; $rest = '' }
            } elsif ($rest =~ s{^.*?(/\*|//)}{}s) {
                if ($1 eq '//') { $text .= $rest; $rest = '' }
                else { $in_c = 1 }
            } else {
                $rest = '';
            }
        }
        return $text;
    }
    return $line =~ /(?:^|\s)(?:#|dnl\s)(.*)/ ? $1 : '';
}

open my $list, '<', $scan or die "$scan: $!";
while (my $f = <$list>) {
    chomp $f;
    next if -B $f;
    open my $in, '<', $f or next;
    my $kind = $f =~ /\.(c|h|mjs)$/ ? 'c'
        : $f =~ m{(^|/)README$|\.md$|\.[15]$|\.json$} ? 'doc' : 'hash';
    my $named = 0;
    $in_c = 0;
    while (my $line = <$in>) {
        my $text = text_of($kind, $line);
        my @bad;
        while ($text =~ /$path/g) {
            $named = 1;
            push @bad, $1 if missing($1);
        }
        while ($text =~ /$md/g) {
            $named = 1;
            push @bad, $1 unless $base{$1};
        }
        print "$f\t$.: $_\n" for @bad;
    }
    print "$f\t\n" if $named;
    close $in;
}
PERL
    {
        not_ok "scan the tree" "perl failed"
        done_testing
    }

for f in $(cut -f1 "$work/refs" | sort -u); do
    bad=$(awk -F '\t' -v f="$f" '$1 == f && $2 != "" { print $2 }' \
        "$work/refs")
    if [ -z "$bad" ]; then
        ok "$f: every file named exists"
    else
        not_ok "$f: every file named exists" "$bad"
    fi
done
done_testing
