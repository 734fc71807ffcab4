fn main() {
    let config = slint_build::CompilerConfiguration::new()
        .with_style("material".into())
        .with_default_translation_context(slint_build::DefaultTranslationContext::None)
        .with_bundled_translations("locales");
    if let Err(error) = slint_build::compile_with_config("ui/app.slint", config) {
        eprintln!("{error}");
        std::process::exit(1);
    }
}
