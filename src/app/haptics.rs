//! The Android system's feedback, over JNI: haptics for the cues (`sound::Haptic`) and
//! whether the system is muted. Nothing on the desktop ([`AVAILABLE`] is false there).
//!
//! `View.performHapticFeedback` (the system's haptic constants: CLOCK_TICK, CONFIRM,
//! REJECT) only acts when called on the activity's UI thread and silently does nothing
//! elsewhere; Slint runs on the native `android_main` thread, and the app's only Java
//! code (its activity, which keeps new intents) posts nothing to the UI thread. So the
//! haptics go through the `Vibrator` service, which any thread may call, with the
//! system's predefined effects (API 29+: TICK for a hop, CLICK for Confirm, DOUBLE_CLICK
//! for a refused tap; API 26-28: short pulses), and only while the system's own touch
//! feedback switch (`haptic_feedback_enabled`) is on. This needs
//! the VIBRATE permission (a normal one, granted at install). Called from the feedback
//! thread (`sound::player`), never the UI thread.

use halma_core::sound::Haptic;

/// Whether this build can give haptic feedback at all (Android only).
pub const AVAILABLE: bool = cfg!(target_os = "android");

/// Gives `haptic` (nothing on the desktop, or when the system says no).
pub fn perform(haptic: Haptic) {
    #[cfg(target_os = "android")]
    android::vibrate(haptic);
    #[cfg(not(target_os = "android"))]
    let _ = haptic;
}

/// True when the system is muted, so that the app stays silent: on Android the ringer in
/// silent or vibrate mode, or the media volume at zero. On the desktop never (there the
/// app is silent only when there is no output device).
pub fn sound_muted() -> bool {
    #[cfg(target_os = "android")]
    let muted = android::muted();
    #[cfg(not(target_os = "android"))]
    let muted = false;
    muted
}

#[cfg(target_os = "android")]
mod android {
    use super::Haptic;
    use crate::app::share::with_activity;
    use jni::objects::JObject;
    use jni::{jni_sig, jni_str, Env, JValue};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::OnceLock;

    /// `VibrationEffect`'s predefined effects (API 29).
    const EFFECT_CLICK: i32 = 0;
    const EFFECT_DOUBLE_CLICK: i32 = 1;
    const EFFECT_TICK: i32 = 2;
    /// `AudioManager.RINGER_MODE_NORMAL`, `AudioManager.STREAM_MUSIC`.
    const RINGER_MODE_NORMAL: i32 = 2;
    const STREAM_MUSIC: i32 = 3;

    pub(super) fn vibrate(haptic: Haptic) {
        let (effect, pulse_ms) = match haptic {
            Haptic::Tick => (EFFECT_TICK, 8),
            Haptic::Confirm => (EFFECT_CLICK, 20),
            Haptic::Reject => (EFFECT_DOUBLE_CLICK, 40),
        };
        let done = with_activity(|env, activity| {
            if !touch_feedback_on(env, activity) {
                return Ok(());
            }
            let vibrator = system_service(env, activity, "vibrator")?;
            if vibrator.is_null() || !env.call_method(&vibrator, jni_str!("hasVibrator"), jni_sig!("()Z"), &[])?.z()? {
                return Ok(());
            }
            let class = jni_str!("android/os/VibrationEffect");
            let effect = if sdk(env) >= 29 {
                let sig = jni_sig!("(I)Landroid/os/VibrationEffect;");
                env.call_static_method(class, jni_str!("createPredefined"), sig, &[JValue::Int(effect)])?.l()?
            } else {
                // A pulse at the default amplitude (-1).
                let sig = jni_sig!("(JI)Landroid/os/VibrationEffect;");
                let args = [JValue::Long(pulse_ms), JValue::Int(-1)];
                env.call_static_method(class, jni_str!("createOneShot"), sig, &args)?.l()?
            };
            let sig = jni_sig!("(Landroid/os/VibrationEffect;)V");
            env.call_method(&vibrator, jni_str!("vibrate"), sig, &[JValue::Object(&effect)])?;
            Ok(())
        });
        if done.is_none() {
            tell_once("vibration");
        }
    }

    pub(super) fn muted() -> bool {
        let muted = with_activity(|env, activity| {
            let audio = system_service(env, activity, "audio")?;
            if audio.is_null() {
                return Ok(false);
            }
            let ringer = env.call_method(&audio, jni_str!("getRingerMode"), jni_sig!("()I"), &[])?.i()?;
            let args = [JValue::Int(STREAM_MUSIC)];
            let volume = env.call_method(&audio, jni_str!("getStreamVolume"), jni_sig!("(I)I"), &args)?.i()?;
            Ok(ringer != RINGER_MODE_NORMAL || volume == 0)
        });
        muted.unwrap_or(false)
    }

    fn system_service<'local>(
        env: &mut Env<'local>,
        activity: &JObject,
        name: &str,
    ) -> jni::errors::Result<JObject<'local>> {
        let name = env.new_string(name)?;
        let sig = jni_sig!("(Ljava/lang/String;)Ljava/lang/Object;");
        env.call_method(activity, jni_str!("getSystemService"), sig, &[JValue::Object(&name)])?.l()
    }

    /// The system's touch feedback switch; on if it cannot be read.
    fn touch_feedback_on(env: &mut Env, activity: &JObject) -> bool {
        let read = (|| -> jni::errors::Result<i32> {
            let sig = jni_sig!("()Landroid/content/ContentResolver;");
            let resolver = env.call_method(activity, jni_str!("getContentResolver"), sig, &[])?.l()?;
            let key = env.new_string("haptic_feedback_enabled")?;
            let sig = jni_sig!("(Landroid/content/ContentResolver;Ljava/lang/String;I)I");
            let args = [JValue::Object(&resolver), JValue::Object(&key), JValue::Int(1)];
            env.call_static_method(jni_str!("android/provider/Settings$System"), jni_str!("getInt"), sig, &args)?.i()
        })();
        match read {
            Ok(enabled) => enabled != 0,
            Err(_) => {
                env.exception_clear();
                true
            }
        }
    }

    /// The system's API level, read once.
    fn sdk(env: &mut Env) -> i32 {
        static SDK: OnceLock<i32> = OnceLock::new();
        *SDK.get_or_init(|| {
            let read = env.get_static_field(jni_str!("android/os/Build$VERSION"), jni_str!("SDK_INT"), jni_sig!("I"));
            read.and_then(|value| value.i()).unwrap_or_else(|_| {
                env.exception_clear();
                26
            })
        })
    }

    /// A failure is told once, calmly: the app goes on without it.
    fn tell_once(what: &str) {
        static TOLD: AtomicBool = AtomicBool::new(false);
        if !TOLD.swap(true, Ordering::Relaxed) {
            eprintln!("halma: no {what} (the system refused it)");
        }
    }
}
