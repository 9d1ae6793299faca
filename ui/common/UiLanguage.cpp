// SPDX-License-Identifier: GPL-3.0-or-later
#include "UiLanguage.h"

#include <QActionGroup>
#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QLoggingCategory>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QTranslator>

namespace ui {

namespace {

Q_LOGGING_CATEGORY(lcLanguage, "console.ui.language")

const char *const LanguageKey = "ui/language";

struct LanguageName
{
    UiLanguage language;
    const char *key;
};
constexpr LanguageName LanguageKeys[] = {{UiLanguage::System, "system"},
                                         {UiLanguage::English, "en"},
                                         {UiLanguage::SimplifiedChinese, "zh_CN"}};

// The locale the translations are looked up for: the desktop's (whose uiLanguages() lists
// LANGUAGE's entries first), or the one chosen. QTranslator::load walks its languages and
// stops at the first file found, so zh_TW or zh_HK find nothing and stay English.
QLocale translationLocale(UiLanguage language)
{
    return language == UiLanguage::SimplifiedChinese
               ? QLocale(QLocale::Chinese, QLocale::SimplifiedChineseScript, QLocale::China)
               : QLocale::system();
}

} // namespace

UiLanguage savedUiLanguage()
{
    const QString saved = QSettings().value(QLatin1String(LanguageKey)).toString();
    for (const LanguageName &n : LanguageKeys)
        if (saved == QLatin1String(n.key))
            return n.language;
    return UiLanguage::System;
}

void saveUiLanguage(UiLanguage language)
{
    for (const LanguageName &n : LanguageKeys)
        if (n.language == language)
            QSettings().setValue(QLatin1String(LanguageKey), QLatin1String(n.key));
}

UiTranslation installUiTranslators(QCoreApplication &app, UiLanguage language)
{
    UiTranslation result;
    if (language == UiLanguage::English)
        return result;
    const QLocale locale = translationLocale(language);
    auto *console = new QTranslator(&app);
    if (!console->load(locale, QStringLiteral("inventory"), QStringLiteral("_"),
                       QStringLiteral(":/i18n"))) {
        delete console;
        // The desktop asks for a language the console has no words for: English, and no
        // Qt translation either, so that one window speaks one language.
        if (language == UiLanguage::System)
            return result;
        result.problem = QStringLiteral("the console's translation is missing from the build");
        qCWarning(lcLanguage) << result.problem;
        return result;
    }
    app.installTranslator(console);
    result.consoleLoaded = true;
    result.locale = console->language();
    const QString qtDir = QLibraryInfo::path(QLibraryInfo::TranslationsPath);
    auto *qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"), qtDir)) {
        app.installTranslator(qt);
        result.qtLoaded = true;
    } else {
        delete qt;
        // Debian ships it in qt6-translations-l10n: without it the standard buttons and file
        // dialogs stay English, which is worth a line in the log, not a refusal to start.
        result.problem = QStringLiteral("Qt's qtbase_%1.qm is not in %2 (qt6-translations-l10n)")
                             .arg(result.locale, qtDir);
        qCWarning(lcLanguage) << result.problem;
    }
    qCInfo(lcLanguage) << "user interface language" << result.locale;
    return result;
}

QMenu *createLanguageMenu(QWidget *parent)
{
    auto *menu = new QMenu(QObject::tr("&Language (applies after a restart)"), parent);
    menu->setObjectName(QStringLiteral("languageMenu"));
    auto *group = new QActionGroup(menu);
    // Each language names itself, so that someone who cannot read the current one finds theirs.
    const struct
    {
        UiLanguage language;
        QString text;
    } choices[] = {
        {UiLanguage::System, QObject::tr("&System language")},
        {UiLanguage::English, QStringLiteral("English")},
        {UiLanguage::SimplifiedChinese, QStringLiteral("简体中文")},
    };
    const UiLanguage saved = savedUiLanguage();
    for (const auto &c : choices) {
        QAction *action = menu->addAction(c.text);
        action->setCheckable(true);
        action->setChecked(c.language == saved);
        action->setData(int(c.language));
        group->addAction(action);
    }
    QObject::connect(group, &QActionGroup::triggered, menu, [parent](QAction *action) {
        const auto chosen = UiLanguage(action->data().toInt());
        if (chosen == savedUiLanguage())
            return;
        saveUiLanguage(chosen);
        QMessageBox::information(parent, QObject::tr("Language"),
                                 QObject::tr("The new language applies the next time the "
                                             "console starts. Nothing else changes now."));
    });
    return menu;
}

} // namespace ui
