//! Android's side of playing between devices (#40), over JNI: Send opens the system's
//! share sheet (`Intent.ACTION_SEND`, text/plain, through `Intent.createChooser`); a text
//! shared to Halma (the manifest's intent filter) is read from the activity's intent's
//! `EXTRA_TEXT`, at start and on every resume (the activity, `android/java`, keeps the
//! intent a running game receives); and a multicast lock
//! (`WifiManager.createMulticastLock`) lets the local network's discovery hear other
//! devices, which Wi-Fi drivers otherwise filter out.
//! Android only: the desktop copies to the clipboard and needs no lock.

use jni::objects::{Global, JObject, JString};
use jni::{jni_sig, jni_str, Env, JValue, JavaVM};

const ACTION_SEND: &str = "android.intent.action.SEND";
const EXTRA_TEXT: &str = "android.intent.extra.TEXT";

/// Runs `f` with the activity on this thread, attached to the VM (once, for good: the
/// feedback thread of haptics calls again and again). `None` if anything failed (a Java
/// exception is caught and cleared by `jni`).
pub(crate) fn with_activity<T>(f: impl FnOnce(&mut Env, &JObject) -> jni::errors::Result<T>) -> Option<T> {
    // Set by android-activity before `android_main` runs.
    let context = ndk_context::android_context();
    if context.vm().is_null() || context.context().is_null() {
        return None;
    }
    // SAFETY: the pointers come from android-activity: the process' VM and a global
    // reference to the activity, valid while the app runs.
    let vm = unsafe { JavaVM::from_raw(context.vm().cast()) };
    let raw = context.context() as jni::sys::jobject;
    vm.attach_current_thread(|env| -> jni::errors::Result<T> {
        // SAFETY: `raw` is a live global reference (above); the cast does not own it.
        let activity = unsafe { env.as_cast_raw::<JObject>(&raw)? };
        f(env, &activity)
    })
    .ok()
}

/// Opens the share sheet with `text` (a game's message): the player picks the chat app.
pub fn share_text(text: &str) {
    let shared = with_activity(|env, activity| {
        let action = env.new_string(ACTION_SEND)?;
        let class = jni_str!("android/content/Intent");
        let intent = env.new_object(class, jni_sig!("(Ljava/lang/String;)V"), &[JValue::Object(&action)])?;
        let kind = env.new_string("text/plain")?;
        let sig = jni_sig!("(Ljava/lang/String;)Landroid/content/Intent;");
        env.call_method(&intent, jni_str!("setType"), sig, &[JValue::Object(&kind)])?;
        let key = env.new_string(EXTRA_TEXT)?;
        let value = env.new_string(text)?;
        let sig = jni_sig!("(Ljava/lang/String;Ljava/lang/String;)Landroid/content/Intent;");
        env.call_method(&intent, jni_str!("putExtra"), sig, &[JValue::Object(&key), JValue::Object(&value)])?;
        let sig = jni_sig!("(Landroid/content/Intent;Ljava/lang/CharSequence;)Landroid/content/Intent;");
        let no_title = JObject::null();
        let args = [JValue::Object(&intent), JValue::Object(&no_title)];
        let chooser = env.call_static_method(class, jni_str!("createChooser"), sig, &args)?.l()?;
        let sig = jni_sig!("(Landroid/content/Intent;)V");
        env.call_method(activity, jni_str!("startActivity"), sig, &[JValue::Object(&chooser)])?;
        Ok(())
    });
    if shared.is_none() {
        eprintln!("halma: the share sheet could not be opened");
    }
}

/// The text shared to Halma, if the activity's intent is an `ACTION_SEND` whose text was not
/// read yet: the text is removed from the intent as it is read, so a game's message is
/// applied once however often the activity resumes.
pub fn received_text() -> Option<String> {
    with_activity(|env, activity| {
        let sig = jni_sig!("()Landroid/content/Intent;");
        let intent = env.call_method(activity, jni_str!("getIntent"), sig, &[])?.l()?;
        if intent.is_null() {
            return Ok(None);
        }
        let action = env.call_method(&intent, jni_str!("getAction"), jni_sig!("()Ljava/lang/String;"), &[])?.l()?;
        if action.is_null() || env.cast_local::<JString>(action)?.try_to_string(env)? != ACTION_SEND {
            return Ok(None);
        }
        // EXTRA_TEXT is a CharSequence (a chat app may share styled text).
        let key = env.new_string(EXTRA_TEXT)?;
        let sig = jni_sig!("(Ljava/lang/String;)Ljava/lang/CharSequence;");
        let text = env.call_method(&intent, jni_str!("getCharSequenceExtra"), sig, &[JValue::Object(&key)])?.l()?;
        if text.is_null() {
            return Ok(None);
        }
        let text = env.call_method(&text, jni_str!("toString"), jni_sig!("()Ljava/lang/String;"), &[])?.l()?;
        let text = env.cast_local::<JString>(text)?.try_to_string(env)?;
        env.call_method(&intent, jni_str!("removeExtra"), jni_sig!("(Ljava/lang/String;)V"), &[JValue::Object(&key)])?;
        Ok(Some(text))
    })
    .flatten()
}

/// A held multicast lock: mDNS discovery hears the network while it lives; dropped, it
/// is released.
pub struct MulticastLock {
    lock: Global<JObject<'static>>,
}

impl MulticastLock {
    /// Takes the lock (needs CHANGE_WIFI_MULTICAST_STATE); `None` if Wi-Fi has none to give.
    pub fn acquire() -> Option<MulticastLock> {
        with_activity(|env, activity| {
            let sig = jni_sig!("()Landroid/content/Context;");
            let app = env.call_method(activity, jni_str!("getApplicationContext"), sig, &[])?.l()?;
            let name = env.new_string("wifi")?;
            let sig = jni_sig!("(Ljava/lang/String;)Ljava/lang/Object;");
            let wifi = env.call_method(&app, jni_str!("getSystemService"), sig, &[JValue::Object(&name)])?.l()?;
            if wifi.is_null() {
                return Ok(None);
            }
            let tag = env.new_string("halma")?;
            let sig = jni_sig!("(Ljava/lang/String;)Landroid/net/wifi/WifiManager$MulticastLock;");
            let lock = env.call_method(&wifi, jni_str!("createMulticastLock"), sig, &[JValue::Object(&tag)])?.l()?;
            if lock.is_null() {
                return Ok(None);
            }
            let sig = jni_sig!("(Z)V");
            env.call_method(&lock, jni_str!("setReferenceCounted"), sig, &[JValue::Bool(false)])?;
            env.call_method(&lock, jni_str!("acquire"), jni_sig!("()V"), &[])?;
            Ok(Some(MulticastLock { lock: env.new_global_ref(lock)? }))
        })
        .flatten()
    }
}

impl Drop for MulticastLock {
    fn drop(&mut self) {
        let lock = &self.lock;
        let released = with_activity(|env, _| {
            env.call_method(lock, jni_str!("release"), jni_sig!("()V"), &[])?;
            Ok(())
        });
        if released.is_none() {
            eprintln!("halma: the multicast lock could not be released");
        }
    }
}
