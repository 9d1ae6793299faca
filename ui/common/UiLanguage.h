// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QCoreApplication;
class QMenu;
class QWidget;

namespace ui {

// The language of the window's own words. System follows the desktop's locale (LANGUAGE,
// LC_ALL, LANG): Simplified Chinese when it asks for zh_CN, English otherwise. The CLI never
// loads a translation: its text is a log and script interface.
enum class UiLanguage { System, English, SimplifiedChinese };

// The choice remembered in QSettings ("ui/language"); System when none was made.
UiLanguage savedUiLanguage();
void saveUiLanguage(UiLanguage language);

// What installUiTranslators did, for the log: each translation loaded or why not.
struct UiTranslation
{
    QString locale; // "zh_CN", or empty for English
    bool consoleLoaded = false;
    bool qtLoaded = false; // Qt's own words (standard buttons, file dialogs)
    QString problem;       // empty when everything wanted was loaded
};

// Installs the console's translation (embedded at build time from
// resources/translations/inventory_zh_CN.ts) and Qt's qtbase one (from
// QLibraryInfo::TranslationsPath) on the application. Call once, before any window exists:
// text already set is not retranslated, which is why a new choice applies after a restart.
UiTranslation installUiTranslators(QCoreApplication &app, UiLanguage language);

// View → Language: System / English / 简体中文, each in its own language, the saved choice
// checked; choosing one saves it and says it applies after a restart.
QMenu *createLanguageMenu(QWidget *parent);

} // namespace ui
