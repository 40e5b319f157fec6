// Renders diagnostics as GitHub Actions workflow commands (`relax check --format github`):
// `::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=CODE::message`, one per line, which
// GitHub shows as annotations on the pull request. Warnings use ::warning, notes ::notice.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ir/diagnostic.h"

namespace relax::analysis {

std::string render_github(const std::vector<ir::Diagnostic>& diags);

// GitHub's escaping: the message escapes '%', '\r' and '\n'; properties also ':' and ','.
std::string github_escape_data(std::string_view text);
std::string github_escape_property(std::string_view text);

}  // namespace relax::analysis
