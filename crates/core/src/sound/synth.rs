//! The sounds, synthesised here from sine partials under a short envelope: no recorded
//! or downloaded audio, so they are the project's own (its licence). Pure: each cue
//! renders to a mono buffer of `f32` samples at [`SAMPLE_RATE`], tested for length and
//! level without an audio device.

use super::Cue;
use std::f32::consts::PI;

/// Samples per second of every rendered sound (the output resamples if it differs).
pub const SAMPLE_RATE: u32 = 44_100;

/// The loudest sample of each sound. Low enough that the sounds that can start together
/// (the last jump, the arrival in camp and the end of the game) sum to at most 1.0.
const PEAK: f32 = 0.3;
/// The end of the game stands out a little.
const ENDING_PEAK: f32 = 0.36;

/// Attack from silence, so that no sound starts with a click.
const ATTACK: f32 = 0.004;
/// The fade to silence at the end of each note.
const RELEASE: f32 = 0.008;

/// A note: its pitch, when it starts and how long it lasts (seconds), its loudness
/// before normalising, how fast it dies away (per second) and its partials
/// (multiple of the pitch, relative loudness).
struct Note {
    hz: f32,
    start: f32,
    length: f32,
    level: f32,
    decay: f32,
    partials: &'static [(f32, f32)],
}

const WOOD: &[(f32, f32)] = &[(1.0, 1.0), (2.0, 0.3), (3.0, 0.1)];
const BELL: &[(f32, f32)] = &[(1.0, 1.0), (2.0, 0.25), (3.0, 0.08)];
const DULL: &[(f32, f32)] = &[(1.0, 1.0), (2.0, 0.5), (3.0, 0.25)];

/// The sound of `cue` (empty for a cue without one: Confirm).
pub fn render(cue: Cue) -> Vec<f32> {
    let note = |hz, start, length, decay, partials| Note { hz, start, length, level: 1.0, decay, partials };
    match cue {
        Cue::Step => mix(&[note(523.25, 0.0, 0.07, 45.0, WOOD)], PEAK),
        Cue::Hop(place) => {
            // A whole tone higher each jump, for the first eight.
            let hz = 659.25 * 2f32.powf(f32::from(place.min(7)) * 2.0 / 12.0);
            mix(&[note(hz, 0.0, 0.09, 35.0, BELL)], PEAK)
        }
        Cue::ArriveInCamp => mix(&[note(783.99, 0.0, 0.3, 12.0, BELL), note(1046.5, 0.08, 0.22, 12.0, BELL)], PEAK),
        Cue::Refused => mix(&[note(196.0, 0.0, 0.14, 25.0, DULL), note(185.0, 0.0, 0.14, 25.0, DULL)], PEAK),
        // C, E, G and the octave, the last one left to ring.
        Cue::Win => mix(
            &[
                note(523.25, 0.0, 0.35, 6.0, BELL),
                note(659.25, 0.1, 0.35, 6.0, BELL),
                note(783.99, 0.2, 0.35, 6.0, BELL),
                note(1046.5, 0.3, 0.7, 4.0, BELL),
            ],
            ENDING_PEAK,
        ),
        // E falling to C, together at the end: settled, neither won nor lost.
        Cue::Draw => mix(&[note(659.25, 0.0, 0.7, 5.0, BELL), note(523.25, 0.15, 0.55, 5.0, BELL)], ENDING_PEAK),
        Cue::Confirm => Vec::new(),
    }
}

/// The notes added together, scaled so that the loudest sample is `peak`.
fn mix(notes: &[Note], peak: f32) -> Vec<f32> {
    let end = notes.iter().map(|note| note.start + note.length).fold(0.0, f32::max);
    let mut samples = vec![0.0f32; seconds_to_samples(end)];
    for note in notes {
        add(&mut samples, note);
    }
    let loudest = samples.iter().fold(0.0f32, |loudest, sample| loudest.max(sample.abs()));
    if loudest > 0.0 {
        let scale = peak / loudest;
        samples.iter_mut().for_each(|sample| *sample *= scale);
    }
    samples
}

fn add(samples: &mut [f32], note: &Note) {
    let rate = SAMPLE_RATE as f32;
    let first = seconds_to_samples(note.start);
    let count = seconds_to_samples(note.length);
    let total: f32 = note.partials.iter().map(|&(_, level)| level).sum();
    for (i, sample) in samples.iter_mut().skip(first).take(count).enumerate() {
        let t = i as f32 / rate;
        let attack = (t / ATTACK).min(1.0);
        let left = note.length - t;
        // A raised cosine to zero over the release.
        let release = if left < RELEASE { 0.5 - 0.5 * (PI * (left / RELEASE).max(0.0)).cos() } else { 1.0 };
        let envelope = note.level * attack * release * (-note.decay * t).exp();
        let wave: f32 =
            note.partials.iter().map(|&(multiple, level)| level * (2.0 * PI * note.hz * multiple * t).sin()).sum();
        *sample += envelope * wave / total;
    }
}

fn seconds_to_samples(seconds: f32) -> usize {
    (seconds * SAMPLE_RATE as f32).round() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOUNDS: [Cue; 8] =
        [Cue::Step, Cue::Hop(0), Cue::Hop(7), Cue::Hop(200), Cue::ArriveInCamp, Cue::Refused, Cue::Win, Cue::Draw];

    fn millis(samples: &[f32]) -> f32 {
        samples.len() as f32 * 1000.0 / SAMPLE_RATE as f32
    }

    fn peak(samples: &[f32]) -> f32 {
        samples.iter().fold(0.0f32, |loudest, sample| loudest.max(sample.abs()))
    }

    fn rms(samples: &[f32]) -> f32 {
        (samples.iter().map(|sample| sample * sample).sum::<f32>() / samples.len() as f32).sqrt()
    }

    #[test]
    fn every_sound_is_short_and_the_ending_longer() {
        for cue in SOUNDS {
            let length = millis(&render(cue));
            let range = if matches!(cue, Cue::Win | Cue::Draw) { 500.0..=1500.0 } else { 40.0..=400.0 };
            assert!(range.contains(&length), "{cue:?}: {length} ms");
        }
        assert_eq!(millis(&render(Cue::Step)).round(), 70.0);
        assert_eq!(millis(&render(Cue::Win)).round(), 1000.0);
        assert!(render(Cue::Confirm).is_empty(), "Confirm is felt, not heard");
    }

    #[test]
    fn every_sound_is_at_its_level_without_clipping() {
        for cue in SOUNDS {
            let samples = render(cue);
            let (peak, rms) = (peak(&samples), rms(&samples));
            let expected = if matches!(cue, Cue::Win | Cue::Draw) { ENDING_PEAK } else { PEAK };
            assert!((peak - expected).abs() < 1e-4, "{cue:?}: peak {peak}");
            assert!(samples.iter().all(|sample| sample.is_finite() && sample.abs() < 1.0), "{cue:?}");
            assert!((0.03..=0.2).contains(&rms), "{cue:?}: RMS {rms}");
        }
        // What may start together stays under full scale.
        let together = [Cue::Hop(7), Cue::ArriveInCamp, Cue::Win].map(|cue| peak(&render(cue)));
        assert!(together.iter().sum::<f32>() <= 1.0, "{together:?}");
    }

    #[test]
    fn every_sound_starts_and_ends_in_silence() {
        let half_ms = SAMPLE_RATE as usize / 2000;
        for cue in SOUNDS {
            let samples = render(cue);
            let (head, tail) = (&samples[..half_ms], &samples[samples.len() - half_ms..]);
            assert!(samples[0].abs() < 1e-6 && peak(head) < 0.05, "{cue:?} starts with a click: {}", peak(head));
            assert!(peak(tail) < 0.01, "{cue:?} ends with a click: {}", peak(tail));
        }
    }

    #[test]
    fn a_chain_climbs_and_the_same_cue_sounds_the_same() {
        assert_eq!(render(Cue::Hop(3)), render(Cue::Hop(3)));
        assert_ne!(render(Cue::Hop(0)), render(Cue::Hop(1)));
        assert_eq!(render(Cue::Hop(7)), render(Cue::Hop(9)), "the pitch stops climbing");
    }
}
