//! The app's feedback sink: sounds through the default audio output (rodio over cpal:
//! ALSA on Linux, AAudio on Android) and, on Android, haptics through the system
//! (`app::haptics`). Everything runs on one background thread, started at the first cue,
//! so the window never waits on a device. The output opens at the first sound and closes
//! after [`IDLE_CLOSE`] of silence (an open stream keeps a phone's audio path awake).
//! With no output device (CI, a server, Xvfb) the app is silent and says so in one line.

use crate::app::haptics;
use halma_core::sound::{synth, Cue, Feedback, Haptic};
use rodio::buffer::SamplesBuffer;
use rodio::{ChannelCount, DeviceSinkBuilder, MixerDeviceSink, SampleRate};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// How long the output stays open after the last sound.
const IDLE_CLOSE: Duration = Duration::from_secs(20);
/// A sound this late (the output was still opening) is dropped rather than played out of
/// step with the board.
const TOO_LATE: Duration = Duration::from_millis(250);

enum Job {
    Sound(Cue, Instant),
    Haptic(Haptic),
}

/// The device's sound and vibration, fed from the UI thread.
#[derive(Default)]
pub struct Device {
    jobs: Option<Sender<Job>>,
    /// The thread could not start or stopped: silent from then on.
    gone: bool,
}

impl Device {
    fn send(&mut self, job: Job) {
        if self.jobs.is_none() && !self.gone {
            let (sender, receiver) = mpsc::channel();
            match std::thread::Builder::new().name("halma-feedback".into()).spawn(move || run(&receiver)) {
                Ok(_) => self.jobs = Some(sender),
                Err(error) => {
                    eprintln!("halma: sound and vibration are off ({error})");
                    self.gone = true;
                }
            }
        }
        if let Some(jobs) = &self.jobs {
            if jobs.send(job).is_err() {
                self.jobs = None;
                self.gone = true;
            }
        }
    }
}

impl Feedback for Device {
    fn sound(&mut self, cue: Cue) {
        self.send(Job::Sound(cue, Instant::now()));
    }

    fn haptic(&mut self, haptic: Haptic) {
        if haptics::AVAILABLE {
            self.send(Job::Haptic(haptic));
        }
    }
}

/// The feedback thread: until the app closes (the sender goes).
fn run(jobs: &Receiver<Job>) {
    // alsa-lib writes its own complaints (no card, unknown PCM) to stderr; on this thread,
    // which opens the output, they go to a buffer instead: our one line says it calmly.
    #[cfg(target_os = "linux")]
    let _alsa_quiet = alsa::Output::local_error_handler().ok();
    let mut output = Output::Closed;
    loop {
        let job = match jobs.recv_timeout(IDLE_CLOSE) {
            Ok(job) => job,
            Err(RecvTimeoutError::Timeout) => {
                output.close();
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => return,
        };
        match job {
            Job::Haptic(haptic) => haptics::perform(haptic),
            Job::Sound(cue, at) => {
                if at.elapsed() <= TOO_LATE && !haptics::sound_muted() {
                    output.play(cue, at);
                }
            }
        }
    }
}

/// The audio output, opened at the first sound.
enum Output {
    Closed,
    Open {
        sink: MixerDeviceSink,
        sounds: HashMap<Cue, SamplesBuffer>,
    },
    /// No output could be opened: silent for the rest of the run.
    Missing,
}

impl Output {
    fn play(&mut self, cue: Cue, at: Instant) {
        if matches!(self, Output::Closed) {
            *self = open();
        }
        if at.elapsed() > TOO_LATE {
            return;
        }
        if let Output::Open { sink, sounds } = self {
            let sound = sounds.entry(cue).or_insert_with(|| buffer(cue));
            sink.mixer().add(sound.clone());
        }
    }

    fn close(&mut self) {
        if matches!(self, Output::Open { .. }) {
            *self = Output::Closed;
        }
    }
}

fn buffer(cue: Cue) -> SamplesBuffer {
    let (mono, rate) = (ChannelCount::MIN, SampleRate::new(synth::SAMPLE_RATE).unwrap_or(SampleRate::MIN));
    SamplesBuffer::new(mono, rate, synth::render(cue))
}

/// Opens the default output (or another configuration of it), without rodio's messages
/// on stderr: a machine without sound is not an error.
fn open() -> Output {
    let opened = DeviceSinkBuilder::from_default_device()
        .map(|builder| builder.with_error_callback(stream_failed))
        .and_then(|builder| builder.open_sink_or_fallback());
    match opened {
        Ok(mut sink) => {
            sink.log_on_drop(false);
            Output::Open { sink, sounds: HashMap::new() }
        }
        Err(error) => {
            eprintln!("halma: no audio output ({error}); playing without sound");
            Output::Missing
        }
    }
}

/// A stream that fails while open (a device unplugged) is told once.
fn stream_failed(error: rodio::cpal::Error) {
    static TOLD: AtomicBool = AtomicBool::new(false);
    if !TOLD.swap(true, Ordering::Relaxed) {
        eprintln!("halma: the audio output stopped ({error})");
    }
}
